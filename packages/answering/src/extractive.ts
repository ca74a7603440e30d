import { analyze, foldHan, hasKana, isCjkCodepoint, termKind } from '@pinpoint/analysis';
import type { Citation } from '@pinpoint/core';
import { sliceCodepoints } from '@pinpoint/core';
import {
  antonymMismatch,
  expectedType,
  hasType,
  markType,
  negationMismatch,
  numberMismatch,
  questionEntities,
  typeSpan,
} from './answer-type.js';
import type { Candidate, QueryTermWeight, RankedChunk } from './candidates.js';
import {
  chunkSentences,
  coverage,
  queryWeights,
  subjectQueryTerms,
  subjectWords,
  termsOf,
  withLineItemNames,
} from './candidates.js';
import type { GateConfig, GateFeatures } from './gate.js';
import { DEFAULT_GATE, gateFamily, gateScore } from './gate.js';
import { explainGate, type GateReasonDetail, gateReasonText } from './gate-reason.js';
import { gateView } from './gate-view.js';
import { sentenceAnchor } from './sentence-anchor.js';

export interface ExtractiveInput {
  question: string;
  /** The ranked list, best first (the answer looks at the first `maxChunks`). */
  chunks: RankedChunk[];
  /** Query terms with IDF weights from the index (SearchResult.query_terms); uniform weights without. */
  queryTerms?: QueryTermWeight[];
  /**
   * The question's words the search scope already holds (a company name, a period the scoped
   * report's identity has): the gate does not count them missing. The answer still reads them.
   */
  satisfied?: string[];
}

export interface ExtractiveAnswer {
  refused: boolean;
  answer: string;
  citations: Citation[];
  /** The gate's decision inputs, and `reason`: one line that says why it answered or refused. */
  gate: {
    score: number;
    threshold: number;
    features: GateFeatures;
    /** The reason in English, and as a code with params for a client to word in its language. */
    reason: string;
    reason_code: GateReasonDetail['code'];
    reason_params: GateReasonDetail['params'];
  };
}

interface Scored {
  c: Candidate;
  /** How likely the sentence answers: the match, plus the retrieval's own judgement of its chunk. */
  score: number;
  /** How well the sentence matches the question alone: what the gate judges. */
  match: number;
  cov: number;
  win: number;
  around: Candidate[];
}

const windowText = (s: Scored): string => s.around.map((c) => c.text).join(' ');
const windowTerms = (s: Scored): Set<string> => new Set(s.around.flatMap((c) => [...c.terms]));

/**
 * A heading, title, caption (figure) or section label: it names a topic but answers nothing, so it
 * is never the whole answer. A line without sentence punctuation that repeats a section heading of
 * its chunk counts as one too (PDF headings often come as paragraphs).
 */
function isLabel(c: Candidate): boolean {
  const type = c.element.type;
  if (type === 'title' || type === 'heading' || type === 'figure') return true;
  const text = c.text.trim();
  return !/[.。．!?！？;；:：]\s*$/u.test(text) && c.source.chunk.section_path.some((h) => h.trim() === text);
}

/** "What is X?" / "Xとは何ですか" / "什么是X": the subject whose defining sentence is the answer. */
const DEFINITION = [
  /^(?:what|who)\s+(?:is|are|was|were)\s+(?:an?\s+|the\s+)?(.+?)\s*\??$/iu,
  /^(?:define|definition of)\s+(.+?)\s*\??$/iu,
  /^(.+?)(?:とは|って)(?:何|なに|どういう|どのような|どんな).*$/u,
  /^(?:什么是|什麼是|何谓|何謂)(.+?)[？?]?$/u,
  /^(.+?)(?:是什么|是什麼|是指什么|是指什麼|指的是什么|指的是什麼)[？?。]?$/u,
];

function definitionSubject(question: string): string | null {
  const q = question.normalize('NFKC').trim();
  for (const re of DEFINITION) {
    const m = re.exec(q);
    const subject = m?.[1]?.replace(/^[《「『"“]|[》」』"”]$/gu, '').trim();
    if (subject && Array.from(subject).length <= 40) return subject;
  }
  return null;
}

/** The sentence defines the subject: it opens with it (or its first words) and goes on with a copula. */
function defines(text: string, subject: string): boolean {
  const t = text.normalize('NFKC').toLowerCase();
  const s = subject.toLowerCase();
  const at = t.indexOf(s);
  if (at < 0 || at > 12) return false;
  const rest = t.slice(at + s.length, at + s.length + 40);
  return /^(?:s|es)?[\s(（《》「」)）,，、]*(?:(?:is|are|was|were)\s+(?:a|an|the|one|any|defined|called)\b|refers to\b|means\b|は|とは|是|係|系|指)/u.test(
    rest,
  );
}

/**
 * The query's weights as they tell the candidate sentences apart: a term every sentence holds (the
 * article's subject, repeated throughout) says nothing about which one answers, so each weight is
 * scaled by how few of the candidates hold the term.
 */
function localWeights(query: QueryTermWeight[], sentences: Candidate[][]): QueryTermWeight[] {
  const all = sentences.flat();
  return query.map((q) => {
    const holding = all.filter((c) => c.terms.has(q.term)).length;
    return { term: q.term, weight: q.weight * Math.log((all.length + 1) / (holding + 0.5)) };
  });
}

function scoreCandidates(query: QueryTermWeight[], sentences: Candidate[][], question: string): Scored[] {
  const type = expectedType(question);
  const subject = definitionSubject(question);
  const local = localWeights(query, sentences);
  const topScore = Math.max(1e-9, ...sentences.map((l) => l[0]?.source.score ?? 0));
  const out: Scored[] = [];
  for (const list of sentences) {
    // The chunk's own headings and labels name what every sentence under them is about: a sentence
    // is not asked to repeat them.
    const context = new Set(list.filter(isLabel).flatMap((c) => [...c.terms]));
    for (const h of list[0]?.source.chunk.section_path ?? []) for (const t of termsOf(h)) context.add(t);
    list.forEach((c, i) => {
      const around = list.slice(Math.max(0, i - 1), i + 2);
      const win = coverage(query, (t) => around.some((s) => s.terms.has(t)));
      const cov = coverage(query, c.terms);
      const sharp = coverage(local, (t) => c.terms.has(t) || context.has(t));
      // The answer's form: a sentence that holds the asked-for kind of value, or defines the asked-for
      // subject, beats one that only repeats the question's words; a label never leads.
      const form =
        (type !== null && hasType(c.text, type, question) ? 0.1 : 0) + (subject !== null && defines(c.text, subject) ? 0.3 : 0);
      const label = isLabel(c) ? 0.5 : 1;
      const match = (0.6 * sharp + 0.4 * win + 0.05 / c.source.rank + form) * label;
      // To answer, the retrieval's own judgement of the chunk counts as well: its score against the
      // best chunk's, and its rank. The gate judges the evidence alone (`match`).
      const score = (0.7 * sharp + 0.3 * win + 0.6 * (c.source.score / topScore) + 0.1 / c.source.rank + form) * label;
      out.push({ c, cov, win, score, match, around });
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

/**
 * The question's terms as the collection knows them: those the index holds with their weight, and
 * those it never saw (weight 0 from the index; pairs aside) at the weight of the rarest known term,
 * since an unseen term is rarer than any seen one.
 */
function knownTerms(question: string, given: QueryTermWeight[] | undefined): { term: string; weight: number; known: boolean }[] {
  const terms = subjectQueryTerms(question, given ?? []).filter((t) => termKind(t.term) !== 'pair');
  const present = terms.filter((t) => t.weight > 0);
  if (present.length === 0 && terms.length === 0) return queryWeights(question, undefined).map((t) => ({ ...t, known: true }));
  const rare = Math.max(1, ...present.map((t) => t.weight));
  return terms.map((t) => (t.weight > 0 ? { ...t, known: true } : { term: t.term, weight: rare, known: false }));
}

function gateFeatures(
  query: QueryTermWeight[],
  best: Scored | undefined,
  input: ExtractiveInput,
  chunkTerms: Set<string>,
  retrievedTerms: Set<string>,
): GateFeatures {
  const all = knownTerms(input.question, input.queryTerms);
  const allMass = all.reduce((s, t) => s + t.weight, 0);
  const knownMass = all.reduce((s, t) => s + (t.known ? t.weight : 0), 0);
  const pairs = (input.queryTerms ?? []).filter((t) => termKind(t.term) === 'pair');
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
    known: allMass === 0 ? 0 : knownMass / allMass,
    cov_all: allMass === 0 ? 0 : all.reduce((s, t) => s + (t.known && terms.has(t.term) ? t.weight : 0), 0) / allMass,
    top_gap: top === 0 ? 0 : (top - mean(scores.slice(1))) / top,
    missing_sentence:
      maxW === 0 ? 1 : Math.max(0, ...query.filter((q) => !(best?.c.terms.has(q.term) ?? false)).map((q) => q.weight)) / maxW,
    entity_missing_sentence: best ? entityMissing(input.question, best.c.terms) : 1,
    pairs_known: pairs.length === 0 ? 1 : pairs.filter((t) => t.weight > 0).length / pairs.length,
    pairs_window: pairs.length === 0 ? 1 : pairs.filter((t) => terms.has(t.term)).length / pairs.length,
    top_all: total + allMass - knownMass === 0 ? 0 : top / (total + allMass - knownMass),
    cov_all_sentence:
      allMass === 0 || !best ? 0 : all.reduce((s, t) => s + (t.known && best.c.terms.has(t.term) ? t.weight : 0), 0) / allMass,
    negation_sentence: best ? negationMismatch(input.question, best.c.text) : 0,
    known_words: knownShare(subjectWords(input.queryTerms ?? [])),
    ...sentenceFit(query, best, input.question, chunkTerms),
    ...turnedRound(input.question, best, text, retrievedTerms),
  };
}

/** How the best sentence alone matches the question (GateFeatures align, rare_sentence, type_sentence). */
function sentenceFit(
  query: QueryTermWeight[],
  best: Scored | undefined,
  question: string,
  chunkTerms: Set<string>,
): Pick<GateFeatures, 'align' | 'rare_sentence' | 'type_sentence'> {
  if (!best) return { align: 0, rare_sentence: 0, type_sentence: 0 };
  const words = query.filter((q) => termKind(q.term) !== 'pair');
  const inChunk = coverage(words, chunkTerms);
  const inSentence = coverage(words, best.c.terms);
  const rarest = [...words].sort((a, b) => b.weight - a.weight)[0];
  const type = markType(question);
  return {
    align: inChunk === 0 ? 0 : Math.min(1, inSentence / inChunk),
    rare_sentence: rarest && best.c.terms.has(rarest.term) ? 1 : 0,
    type_sentence: type === null || typeSpan(best.c.text, type, question) !== null ? 1 : 0,
  };
}

/**
 * What an English question written from its sentence with one thing changed leaves behind (GateFeatures
 * antonym_sentence, entity_absent, number_mismatch). Read for Latin-script questions only: the
 * opposites are English words, a CJK question has no capitalised names, and with them the CJK
 * model lost on jsquad-dev and jaquad-dev.
 */
function turnedRound(
  question: string,
  best: Scored | undefined,
  windowText: string,
  retrievedTerms: Set<string>,
): Pick<GateFeatures, 'antonym_sentence' | 'entity_absent' | 'number_mismatch'> {
  if (gateFamily(question) === 'cjk') return { antonym_sentence: 0, entity_absent: 0, number_mismatch: 0 };
  return {
    antonym_sentence: best ? antonymMismatch(question, best.c.text) : 0,
    entity_absent: entityMissing(question, retrievedTerms),
    number_mismatch: numberMismatch(question, windowText),
  };
}

/** Share of the terms' weight the collection holds, an unseen term weighing as the rarest seen one (1 without terms). */
function knownShare(terms: QueryTermWeight[]): number {
  if (terms.length === 0) return 1;
  const rare = Math.max(1, ...terms.map((t) => t.weight));
  const total = terms.reduce((s, t) => s + (t.weight > 0 ? t.weight : rare), 0);
  return terms.reduce((s, t) => s + t.weight, 0) / total;
}

const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

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

function toCitation(s: Scored, n: number, question: string): Citation {
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
  const type = markType(question);
  const mark = type === null ? null : typeSpan(s.c.text, type, question);
  if (mark) citation.mark = mark;
  if (chunk.page_index !== undefined) citation.page_index = chunk.page_index;
  if (s.c.source.page_label !== undefined) citation.page_label = s.c.source.page_label;
  return citation;
}

/** The same sentence, also when two overlapping chunks both hold it. */
const same = (a: Scored, b: Scored): boolean => sameElement(a.c, b.c) && a.c.start === b.c.start && a.c.end === b.c.end;

/** Element ids are unique within a version only. */
const sameElement = (a: Candidate, b: Candidate): boolean =>
  a.element.element_id === b.element.element_id && a.source.chunk.version_id === b.source.chunk.version_id;

/**
 * The best one or two sentences. The second is the best sentence's neighbour that holds what the
 * question asks for (a number, a name) when the best one does not; else another sentence nearly as
 * good from another place; else the best sentence's closest neighbour, for context.
 */
function pickSentences(ranked: Scored[], max: number, question: string): Scored[] {
  const best = ranked.find((s) => !isLabel(s.c)) ?? ranked[0];
  if (!best) return [];
  const picked = [best];
  if (max < 2) return picked;
  const type = expectedType(question);
  const neighbours = ranked.filter((s) => !same(s, best) && best.around.includes(s.c) && !isLabel(s.c));
  const typed =
    type !== null && !hasType(best.c.text, type, question)
      ? neighbours.find((s) => hasType(s.c.text, type, question))
      : undefined;
  if (typed) picked.push(typed);
  for (const s of ranked) {
    if (picked.length >= max || s.score < 0.75 * best.score) break;
    if (picked.some((p) => same(p, s)) || isLabel(s.c)) continue;
    picked.push(s);
  }
  // Alone, the best sentence often leans on its neighbour for the answer ("この年の秋…", "It was…").
  const context = neighbours[0];
  if (picked.length === 1 && context) picked.push(context);
  return picked;
}

/**
 * Two picked sentences that follow each other in one element are one passage, read in the text's
 * order and cited once: "因此它有时也被称为笨蛋水果。 [1] 钙含量比菠菜高50％以上… [2]" reads backwards and
 * splits what the text says in one breath.
 */
function joinAdjacent(picked: Scored[]): Scored[] {
  const out: Scored[] = [];
  for (const s of picked) {
    const i = out.findIndex((p) => sameElement(p.c, s.c) && touching(p.c, s.c));
    const p = out[i];
    if (!p) {
      out.push(s);
      continue;
    }
    const start = Math.min(p.c.start, s.c.start);
    const end = Math.max(p.c.end, s.c.end);
    const text = sliceCodepoints(p.c.element.text, start, end);
    out[i] = { ...p, c: { ...p.c, start, end, text, terms: new Set([...p.c.terms, ...s.c.terms]) } };
  }
  return out;
}

/** Nothing but white space between the two sentences' ranges of their element. */
function touching(a: Candidate, b: Candidate): boolean {
  const [first, second] = a.start <= b.start ? [a, b] : [b, a];
  if (second.start < first.end) return false;
  return /^\s*$/u.test(sliceCodepoints(a.element.text, first.end, second.start));
}

export function refusalMessage(question: string): string {
  if (hasKana(question)) return '資料にはこの質問への答えが見つかりませんでした。';
  if (gateFamily(question) === 'cjk')
    return foldHan(question) === question ? '文件中没有找到这个问题的答案。' : '文件中沒有找到這個問題的答案。';
  return 'The documents do not answer this question.';
}

/** The zero-key answer: best sentences of the top chunks with exact citations, or a refusal. */
export function answerExtractive(input: ExtractiveInput, options: Partial<GateConfig> = {}): ExtractiveAnswer {
  const config: GateConfig = { ...DEFAULT_GATE, ...options };
  const query = queryWeights(input.question, input.queryTerms);
  const top = input.chunks.slice(0, config.maxChunks);
  const sentences = withLineItemNames(top.map(chunkSentences), input.question);
  const ranked = scoreCandidates(query, sentences, input.question);
  const chunkTerms = new Set((sentences[0] ?? []).flatMap((c) => [...c.terms]));
  // The gate judges the sentence that matches the question best; the answer may quote another.
  const retrievedTerms = new Set(sentences.flatMap((list) => list.flatMap((c) => [...c.terms])));
  const view = gateView(input, (name) => termsOf(name).every((t) => retrievedTerms.has(t)));
  const gateQuery = view === input ? query : queryWeights(view.question, view.queryTerms);
  const judged = view === input ? ranked : scoreCandidates(gateQuery, sentences, view.question);
  const evidence = judged.reduce<Scored | undefined>((b, s) => (b === undefined || s.match > b.match ? s : b), undefined);
  const features = gateFeatures(gateQuery, evidence, view, chunkTerms, retrievedTerms);
  const model = config.models[gateFamily(input.question)];
  const score = gateScore(features, model);
  const threshold = model.threshold;
  const refused = ranked.length === 0 || score < threshold || features.cov_window < model.minCoverage;
  const detail = explainGate({
    question: view.question,
    refused,
    features,
    queryTerms: view.queryTerms ?? [],
    windowTerms: evidence ? windowTerms(evidence) : new Set(),
  });
  const gate = {
    score,
    threshold,
    features,
    reason: gateReasonText(detail),
    reason_code: detail.code,
    reason_params: detail.params,
  };
  if (refused) return { refused: true, answer: refusalMessage(input.question), citations: [], gate };
  const picked = pickSentences(ranked, config.maxSentences, input.question);
  const passages = joinAdjacent(picked);
  const citations = passages.map((s, i) => toCitation(s, i + 1, input.question));
  const answer = passages.map((s, i) => `${s.c.text} [${i + 1}]`).join(' ');
  return { refused: false, answer, citations, gate };
}
