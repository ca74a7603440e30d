import { createAnalyzer, expandFinanceTerms, foldHan, isCjkCodepoint, splitSentences, termKind } from '@pinpoint/analysis';
import type { Chunk, Element } from '@pinpoint/core';
import { escapeRegExp, sliceCodepoints } from '@pinpoint/core';

/** A chunk from the store with what the answerer needs to cite it. */
export interface RankedChunk {
  chunk: Chunk;
  /** At least the elements the chunk covers. */
  elements: Element[];
  /** Original file name of the document. */
  file: string;
  /** 1-based rank in the retrieved list. */
  rank: number;
  score: number;
  page_label?: string;
}

export interface QueryTermWeight {
  term: string;
  weight: number;
}

/** A sentence of a retrieved chunk: its element and codepoint range in the element's text. */
export interface Candidate {
  source: RankedChunk;
  element: Element;
  start: number;
  end: number;
  text: string;
  terms: Set<string>;
  /** Position within the chunk, for windows. */
  position: number;
}

/**
 * Sentences are analysed without dictionary segmentation (Intl.Segmenter dominates the cost of an
 * answer): CJK is matched on character bigrams, Latin on stems and word pairs.
 */
const sentenceAnalyzer = createAnalyzer({ cjkWords: false });
const hasCjk = (term: string): boolean => Array.from(term).some((c) => isCjkCodepoint(c.codePointAt(0) ?? 0));
const isCjkWord = (term: string): boolean => !term.startsWith('#') && !term.startsWith('@') && hasCjk(term);

/** Sentence analyses by chunk: chunks are immutable (a version never changes), so they are reused. */
const CACHE_LIMIT = 4000;
interface SentenceInfo {
  element_id: string;
  start: number;
  end: number;
  text: string;
  terms: Set<string>;
  position: number;
}
const cache = new Map<string, SentenceInfo[]>();

function analyseChunk(source: RankedChunk): SentenceInfo[] {
  const key = `${source.chunk.chunk_set_id}\u0000${source.chunk.chunk_id}\u0000${source.chunk.text.length}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const out: SentenceInfo[] = [];
  for (const ref of source.chunk.elements) {
    const element = source.elements.find((e) => e.element_id === ref.element_id);
    if (!element) continue;
    const covered = sliceCodepoints(element.text, ref.start, ref.end);
    for (const r of splitSentences(covered)) {
      const text = sliceCodepoints(covered, r.start, r.end);
      if (!/[\p{L}\p{N}]/u.test(text)) continue;
      const terms = new Set(sentenceAnalyzer.analyze(text));
      out.push({
        element_id: element.element_id,
        start: ref.start + r.start,
        end: ref.start + r.end,
        text,
        terms,
        position: out.length,
      });
    }
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, out);
  return out;
}

export function chunkSentences(source: RankedChunk): Candidate[] {
  const out: Candidate[] = [];
  for (const s of analyseChunk(source)) {
    const element = source.elements.find((e) => e.element_id === s.element_id);
    if (element) out.push({ ...s, source, element });
  }
  return out;
}

/**
 * The wording of a question rather than its subject: interrogatives and polite endings in Japanese
 * and Chinese. Encyclopedic text rarely holds them, so their bigrams would read as rare unmatched
 * terms; the gate and the sentence choice look only at the rest of the question.
 */
const CJK_QUESTION_WORDS =
  /(でしょうか|ましたか|でしたか|ですか|ますか|なんですか|のですか|何ですか|どのような|どのように|どんな|どれくらい|どのくらい|どちら|どこ|どの|どれ|どう|なぜ|なに|何|いつ|いくつ|いくら|だれ|誰|とは|というのは|は[?？]|か[?？]|什麼|什么|甚麼|为什么|為什麼|為何|为何|哪裡|哪里|哪些|哪個|哪个|哪|誰|谁|多少|幾|几|怎麼|怎么|如何|是否|嗎|吗|呢|何時|何时)/gu;

const QUESTION_WORDING = new RegExp(`^(?:${CJK_QUESTION_WORDS.source})+$`, 'u');

/**
 * The question's dictionary words as the index weighs them (CJK words, Latin stems), the wording of
 * a Japanese or Chinese question (何, 什么, ですか …) left out.
 */
export function subjectWords(given: QueryTermWeight[]): QueryTermWeight[] {
  return given.filter((t) => termKind(t.term) === 'word' && !QUESTION_WORDING.test(t.term));
}

/** The question's terms that name its subject (CJK wording of the question itself left out). */
function subjectTerms(question: string): Set<string> {
  return new Set(sentenceAnalyzer.analyze(question.normalize('NFKC').replace(CJK_QUESTION_WORDS, ' ')));
}

/** Query terms with weights; without index statistics every distinct term weighs 1. */
export function queryWeights(question: string, given: QueryTermWeight[] | undefined): QueryTermWeight[] {
  const subject = subjectTerms(question);
  const isSubject = (t: string): boolean => !hasCjk(t) || subject.has(t);
  if (given && given.length > 0) return given.filter((t) => t.weight > 0 && !isCjkWord(t.term) && isSubject(t.term));
  return [...subject].map((term) => ({ term, weight: 1 }));
}

/** Index terms of the question that name its subject (see queryWeights), zero weights kept. */
export function subjectQueryTerms(question: string, given: QueryTermWeight[]): QueryTermWeight[] {
  const subject = subjectTerms(question);
  return given.filter((t) => !isCjkWord(t.term) && (!hasCjk(t.term) || subject.has(t.term)));
}

/** IDF-weighted share of the query found in a set of terms (0..1). */
export function coverage(query: QueryTermWeight[], terms: Set<string> | ((t: string) => boolean)): number {
  const has = typeof terms === 'function' ? terms : (t: string) => terms.has(t);
  let total = 0;
  let found = 0;
  for (const q of query) {
    total += q.weight;
    if (has(q.term)) found += q.weight;
  }
  return total === 0 ? 0 : found / total;
}

/**
 * Sentences that state a line item by another of its standard names than the question's ("cost of
 * revenue" for COGS, 営業利益 for operating income: the finance lexicon's groups) also hold the
 * question's name's terms: the gate and the sentence choice read "COGS" as found where the filing
 * says "cost of revenue". Sentences without such a name are returned as they are.
 */
export function withLineItemNames(sentences: Candidate[][], question: string): Candidate[][] {
  const names = new Map<string, string[]>();
  for (const e of expandFinanceTerms(question)) names.set(e.term, [...(names.get(e.term) ?? []), e.matched]);
  if (names.size === 0) return sentences;
  // the question's names' terms, by the other name a sentence may say (Latin names lower-cased)
  const latin = new Map<string, string[]>();
  const cjk = new Map<string, string[]>();
  for (const [name, matched] of names) {
    const terms = matched.flatMap((m) => termsOf(m));
    if (hasCjk(name)) cjk.set(foldHan(name), terms);
    else latin.set(name.toLowerCase(), terms);
  }
  // one pass over a sentence for all its Latin names, one folding of it for the CJK ones
  const escaped = [...latin.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const said =
    escaped.length > 0 ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'giu') : undefined;
  return sentences.map((list) =>
    list.map((c) => {
      const text = c.text.normalize('NFKC');
      const extra: string[] = [];
      if (said) for (const m of text.matchAll(said)) extra.push(...(latin.get(m[0].toLowerCase()) ?? []));
      if (cjk.size > 0 && hasCjk(text)) {
        const folded = foldHan(text);
        for (const [name, terms] of cjk) if (folded.includes(name)) extra.push(...terms);
      }
      return extra.length === 0 ? c : { ...c, terms: new Set([...c.terms, ...extra]) };
    }),
  );
}

/** The analysed terms of a piece of text, as sentences are matched (no word pairs). */
export function termsOf(text: string): string[] {
  return sentenceAnalyzer.analyze(text).filter((t) => !t.startsWith('_'));
}
