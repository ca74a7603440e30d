import { analyze, hasKana, isCjkCodepoint } from '@pinpoint/analysis';
import type { Citation } from '@pinpoint/core';
import { expectedType, hasType, negationMismatch, questionEntities } from './answer-type.js';
import type { Candidate, QueryTermWeight, RankedChunk } from './candidates.js';
import { chunkSentences, coverage, queryWeights } from './candidates.js';
import type { GateConfig, GateFeatures } from './gate.js';
import { DEFAULT_GATE, gateFamily, gateScore } from './gate.js';
import { sentenceAnchor } from './sentence-anchor.js';

export interface ExtractiveInput {
  question: string;
  /** The ranked list, best first (the answer looks at the first `maxChunks`). */
  chunks: RankedChunk[];
  /** Query terms with IDF weights from the index (SearchResult.query_terms); uniform weights without. */
  queryTerms?: QueryTermWeight[];
}

export interface ExtractiveAnswer {
  refused: boolean;
  answer: string;
  citations: Citation[];
  gate: { score: number; threshold: number; features: GateFeatures };
}

interface Scored {
  c: Candidate;
  score: number;
  cov: number;
  win: number;
  around: Candidate[];
}

const windowText = (s: Scored): string => s.around.map((c) => c.text).join(' ');
const windowTerms = (s: Scored): Set<string> => new Set(s.around.flatMap((c) => [...c.terms]));

function scoreCandidates(query: QueryTermWeight[], sentences: Candidate[][]): Scored[] {
  const out: Scored[] = [];
  for (const list of sentences) {
    list.forEach((c, i) => {
      const around = list.slice(Math.max(0, i - 1), i + 2);
      const win = coverage(query, (t) => around.some((s) => s.terms.has(t)));
      const cov = coverage(query, c.terms);
      const score = 0.6 * cov + 0.4 * win + 0.05 / c.source.rank;
      out.push({ c, cov, win, score, around });
    });
  }
  return out.sort((a, b) => b.score - a.score);
}

/** Words of a text for order-aware matching: Latin words lower-cased, CJK characters one by one. */
function orderedWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text
    .normalize('NFKC')
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    if (Array.from(w).some((ch) => isCjkCodepoint(ch.codePointAt(0) ?? 0))) out.push(...Array.from(w));
    else out.push(w);
  }
  return out;
}

/** Longest run of the question's words found contiguously in the sentence, over the question's length. */
function verbatimShare(question: string, sentence: string): number {
  const q = orderedWords(question);
  const s = orderedWords(sentence);
  if (q.length === 0 || s.length === 0) return 0;
  let best = 0;
  let prev = new Array<number>(s.length + 1).fill(0);
  for (let i = 1; i <= q.length; i++) {
    const row = new Array<number>(s.length + 1).fill(0);
    for (let j = 1; j <= s.length; j++) {
      if (q[i - 1] === s[j - 1]) {
        row[j] = (prev[j - 1] ?? 0) + 1;
        if ((row[j] ?? 0) > best) best = row[j] ?? 0;
      }
    }
    prev = row;
  }
  return best / q.length;
}

function gateFeatures(
  query: QueryTermWeight[],
  best: Scored | undefined,
  input: ExtractiveInput,
  chunkTerms: Set<string>,
): GateFeatures {
  const scores = input.chunks.map((c) => c.score);
  const top = scores[0] ?? 0;
  const total = query.reduce((s, q) => s + q.weight, 0);
  const maxW = Math.max(0, ...query.map((q) => q.weight));
  const terms = best ? windowTerms(best) : new Set<string>();
  const text = best ? windowText(best) : '';
  const missing = Math.max(0, ...query.filter((q) => !terms.has(q.term)).map((q) => q.weight));
  const type = expectedType(input.question);
  return {
    cov_sentence: best?.cov ?? 0,
    cov_window: best?.win ?? 0,
    cov_chunk: coverage(query, chunkTerms),
    missing_max: maxW === 0 ? 1 : missing / maxW,
    top_norm: total === 0 ? 0 : top / total,
    margin: top === 0 ? 0 : (top - (scores[1] ?? 0)) / top,
    type_ok: type === null || (best !== undefined && hasType(text, type, input.question)) ? 1 : 0,
    negation_mismatch: negationMismatch(input.question, text),
    entity_missing: entityMissing(input.question, terms),
    novel: best ? novelShare(query, best.c.terms) : 0,
    cov_rare: coverage(
      query.filter((q) => q.weight >= 0.5 * maxW),
      terms,
    ),
    verbatim: best ? verbatimShare(input.question, best.c.text) : 0,
  };
}

/** Share of the best sentence's terms that the query does not hold: room for an answer. */
function novelShare(query: QueryTermWeight[], terms: Set<string>): number {
  if (terms.size === 0) return 0;
  const q = new Set(query.map((t) => t.term));
  let novel = 0;
  for (const t of terms) if (!q.has(t)) novel++;
  return novel / terms.size;
}

function entityMissing(question: string, windowTerms: Set<string>): number {
  const entities = questionEntities(question).flatMap((w) => analyze(w));
  if (entities.length === 0) return 0;
  return entities.filter((t) => !windowTerms.has(t)).length / entities.length;
}

function toCitation(s: Scored, n: number): Citation {
  const { anchor, precision } = sentenceAnchor(s.c.element, s.c.start, s.c.end);
  const chunk = s.c.source.chunk;
  const citation: Citation = {
    n,
    document_id: chunk.document_id,
    version_id: chunk.version_id,
    chunk_id: chunk.chunk_id,
    element_id: s.c.element.element_id,
    file: s.c.source.file,
    anchor,
    quote: s.c.text,
    precision,
  };
  if (chunk.page_index !== undefined) citation.page_index = chunk.page_index;
  if (s.c.source.page_label !== undefined) citation.page_label = s.c.source.page_label;
  return citation;
}

/** The best one or two sentences; a second only when nearly as good and from another place. */
function pickSentences(ranked: Scored[], max: number): Scored[] {
  const best = ranked[0];
  if (!best) return [];
  const picked = [best];
  for (const s of ranked.slice(1)) {
    if (picked.length >= max || s.score < 0.85 * best.score) break;
    if (picked.some((p) => p.c.element === s.c.element && p.c.start === s.c.start)) continue;
    picked.push(s);
  }
  return picked;
}

export function refusalMessage(question: string): string {
  if (hasKana(question)) return '資料にはこの質問への答えが見つかりませんでした。';
  if (gateFamily(question) === 'cjk') return '文件中沒有找到這個問題的答案。';
  return 'The documents do not answer this question.';
}

/** The zero-key answer: best sentences of the top chunks with exact citations, or a refusal. */
export function answerExtractive(input: ExtractiveInput, options: Partial<GateConfig> = {}): ExtractiveAnswer {
  const config: GateConfig = { ...DEFAULT_GATE, ...options };
  const query = queryWeights(input.question, input.queryTerms);
  const top = input.chunks.slice(0, config.maxChunks);
  const sentences = top.map(chunkSentences);
  const ranked = scoreCandidates(query, sentences);
  const chunkTerms = new Set((sentences[0] ?? []).flatMap((c) => [...c.terms]));
  const features = gateFeatures(query, ranked[0], input, chunkTerms);
  const model = config.models[gateFamily(input.question)];
  const score = gateScore(features, model);
  const threshold = model.threshold;
  const gate = { score, threshold, features };
  if (ranked.length === 0 || score < threshold || features.cov_window < model.minCoverage)
    return { refused: true, answer: refusalMessage(input.question), citations: [], gate };
  const picked = pickSentences(ranked, config.maxSentences);
  const citations = picked.map((s, i) => toCitation(s, i + 1));
  const answer = picked.map((s, i) => `${s.c.text} [${i + 1}]`).join(' ');
  return { refused: false, answer, citations, gate };
}
