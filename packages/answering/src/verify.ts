import { analyze, splitSentences } from '@pinpoint/analysis';
import type { Citation, Embedder, SentenceSupport } from '@pinpoint/core';
import { sliceCodepoints } from '@pinpoint/core';
import { CITATION_MARKER } from './generate.js';

/** One answer sentence that cites sources, and whether those sources support it (the HTTP contract's shape). */
export type { SentenceSupport };

export interface VerifyOptions {
  embedder?: Embedder | null;
  /** Lexical support needed (measured in README: "Citation verification"). */
  minLexical?: number;
  /** Cosine that rescues a paraphrase the lexical check misses. */
  minCosine?: number;
  signal?: AbortSignal;
}

export const DEFAULT_VERIFY = { minLexical: 0.4, minCosine: 0.8 } as const;

interface CitingSentence {
  start: number;
  end: number;
  text: string;
  cites: number[];
}

/** Answer sentences with their markers; a marker standing alone after a full stop belongs to the sentence before. */
export function citingSentences(answer: string): CitingSentence[] {
  const numbers = (text: string) =>
    [...text.matchAll(CITATION_MARKER)].flatMap((m) => (m[1] ?? '').split(/[,、，]/).map((x) => Number(x.trim())));
  const out: CitingSentence[] = [];
  for (const r of splitSentences(answer)) {
    const text = sliceCodepoints(answer, r.start, r.end);
    // Markers that open a "sentence" were written after the previous one's full stop.
    const lead = /^\s*(?:\[[\d\s,、，]+\]\s*)+/u.exec(text)?.[0] ?? '';
    const prev = out.at(-1);
    if (lead && prev) prev.cites.push(...numbers(lead));
    const rest = text.slice(lead.length);
    const prose = rest.replace(CITATION_MARKER, '').trim();
    if (!/[\p{L}\p{N}]/u.test(prose)) continue;
    out.push({ start: r.start + Array.from(lead).length, end: r.end, text: prose, cites: numbers(rest) });
  }
  return out.filter((s) => s.cites.length > 0).map((s) => ({ ...s, cites: [...new Set(s.cites)] }));
}

const NUMBER = /\d+(?:[.,]\d+)*/g;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Han and katakana carry names and terms; hiragana is mostly grammar, which answers rephrase freely. */
const NAME_CHAR = /[\p{Script=Han}\p{Script=Katakana}ー]/u;
/** Shortest run of CJK characters, none of whose bigrams occur in the source, that counts as a novel name. */
const MIN_CJK_RUN = 4;

function novelCjkRuns(sentence: string, source: string): string[] {
  const chars = Array.from(sentence);
  const cjk = (c: string | undefined) => c !== undefined && NAME_CHAR.test(c);
  const out: string[] = [];
  let run = '';
  const flush = () => {
    if (Array.from(run).length >= MIN_CJK_RUN) out.push(run);
    run = '';
  };
  for (const [i, c] of chars.entries()) {
    if (!cjk(c)) {
      flush();
      continue;
    }
    const prev = chars[i - 1];
    const next = chars[i + 1];
    const covered = (cjk(prev) && source.includes(`${prev}${c}`)) || (cjk(next) && source.includes(`${c}${next}`));
    if (covered) flush();
    else run += c;
  }
  flush();
  return out;
}

/** Numbers, capitalised names (not sentence-initial) and runs of CJK text that the source does not contain. */
export function novelSpans(sentence: string, source: string): string[] {
  const src = source.normalize('NFKC').toLowerCase().replace(/[\s,]/g, '');
  const sent = sentence.normalize('NFKC');
  const numbers = (sent.match(NUMBER) ?? []).filter((n) => !src.includes(n.replace(/[\s,]/g, '')));
  const words = [...sent.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)].map((m) => m[0]);
  const names = words.filter((w, i) => i > 0 && !CJK_CHAR.test(w) && /^\p{Lu}/u.test(w) && !src.includes(w.toLowerCase()));
  return [...new Set([...numbers, ...names, ...novelCjkRuns(sent.toLowerCase(), src)])];
}

function lexicalSupport(sentence: string, source: string): { lexical: number; missing: string[] } {
  const terms = [...new Set(analyze(sentence))];
  const have = new Set(analyze(source));
  const found = terms.filter((t) => have.has(t)).length;
  return { lexical: terms.length === 0 ? 1 : found / terms.length, missing: novelSpans(sentence, source) };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}

/** Embeds each source's sentences once per answer; a sentence's score is its best cosine with any of them. */
function cosineScorer(embedder: Embedder, signal?: AbortSignal): (sentence: string, source: string) => Promise<number> {
  const sourceVectors = new Map<string, Promise<Float32Array[]>>();
  return async (sentence, source) => {
    let vectors = sourceVectors.get(source);
    if (!vectors) {
      const parts = splitSentences(source)
        .map((r) => sliceCodepoints(source, r.start, r.end))
        .filter((t) => /[\p{L}\p{N}]/u.test(t));
      vectors = embedder.embedDocuments(parts.slice(0, 40), signal);
      sourceVectors.set(source, vectors);
    }
    const [[v], vs] = await Promise.all([embedder.embedDocuments([sentence], signal), vectors]);
    return v ? Math.max(0, ...vs.map((w) => dot(v, w))) : 0;
  };
}

/**
 * Checks every citing sentence against the text of the sources it cites: lexical support (content
 * terms of the shared analyzer, and every number present), plus embedding cosine when an embedder
 * is given. `sourceText(n)` is the text of source n as numbered in the answer.
 */
export async function verifyAnswer(
  answer: string,
  sourceText: (n: number) => string | undefined,
  options: VerifyOptions = {},
): Promise<SentenceSupport[]> {
  const minLexical = options.minLexical ?? DEFAULT_VERIFY.minLexical;
  const minCosine = options.minCosine ?? DEFAULT_VERIFY.minCosine;
  const cosineOf = options.embedder ? cosineScorer(options.embedder, options.signal) : undefined;
  const out: SentenceSupport[] = [];
  for (const s of citingSentences(answer)) {
    const source = s.cites.map((n) => sourceText(n) ?? '').join('\n');
    const { lexical, missing } = lexicalSupport(s.text, source);
    const cosine = cosineOf && source ? await cosineOf(s.text, source) : undefined;
    const byWords = lexical >= minLexical || (cosine !== undefined && cosine >= minCosine);
    const supported = source.length > 0 && byWords && missing.length === 0;
    out.push({ ...s, supported, lexical, missing, ...(cosine !== undefined ? { cosine } : {}) });
  }
  return out;
}

/** A citation is unsupported when any sentence citing it is. */
export function markCitations(citations: Citation[], sentences: SentenceSupport[]): Citation[] {
  return citations.map((c) => {
    const citing = sentences.filter((s) => s.cites.includes(c.n));
    return citing.length === 0 ? c : { ...c, supported: citing.every((s) => s.supported) };
  });
}
