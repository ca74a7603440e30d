import { analyze, splitSentences } from '@pinpoint/analysis';
import type { Citation, Embedder } from '@pinpoint/core';
import { sliceCodepoints } from '@pinpoint/core';
import { CITATION_MARKER } from './generate.js';

/** One answer sentence that cites sources, and whether those sources support it. */
export interface SentenceSupport {
  /** Codepoint range in the answer text. */
  start: number;
  end: number;
  text: string;
  cites: number[];
  supported: boolean;
  /** Share of the sentence's content terms found in the cited sources (0..1). */
  lexical: number;
  /** Best cosine between the sentence and a sentence of the cited sources, when an embedder is given. */
  cosine?: number;
  /** Numbers in the sentence that no cited source contains (a hallmark of invented figures). */
  missing_numbers: string[];
}

export interface VerifyOptions {
  embedder?: Embedder | null;
  /** Lexical support needed (measured in README: "Citation verification"). */
  minLexical?: number;
  /** Cosine that rescues a paraphrase the lexical check misses. */
  minCosine?: number;
  signal?: AbortSignal;
}

export const DEFAULT_VERIFY = { minLexical: 0.5, minCosine: 0.8 } as const;

interface CitingSentence {
  start: number;
  end: number;
  text: string;
  cites: number[];
}

/** Answer sentences with their markers; a marker standing alone after a full stop belongs to the sentence before. */
export function citingSentences(answer: string): CitingSentence[] {
  const out: CitingSentence[] = [];
  for (const r of splitSentences(answer)) {
    const text = sliceCodepoints(answer, r.start, r.end);
    const cites = [...text.matchAll(CITATION_MARKER)].flatMap((m) => (m[1] ?? '').split(/[,、，]/).map((s) => Number(s.trim())));
    const prose = text.replace(CITATION_MARKER, '').trim();
    const prev = out.at(-1);
    if (!/[\p{L}\p{N}]/u.test(prose) && prev) {
      prev.cites.push(...cites);
      prev.end = r.end;
      continue;
    }
    out.push({ start: r.start, end: r.end, text: prose, cites });
  }
  return out.filter((s) => s.cites.length > 0).map((s) => ({ ...s, cites: [...new Set(s.cites)] }));
}

const NUMBER = /\d+(?:[.,]\d+)*/g;

function lexicalSupport(sentence: string, source: string): { lexical: number; missing: string[] } {
  const terms = [...new Set(analyze(sentence))];
  const have = new Set(analyze(source));
  const found = terms.filter((t) => have.has(t)).length;
  const digits = (s: string) => s.replace(/[\s,]/g, '');
  const sourceDigits = digits(source.normalize('NFKC'));
  const missing = [...new Set(sentence.normalize('NFKC').match(NUMBER) ?? [])].filter((n) => !sourceDigits.includes(digits(n)));
  return { lexical: terms.length === 0 ? 1 : found / terms.length, missing };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}

async function bestCosine(embedder: Embedder, sentence: string, source: string, signal?: AbortSignal): Promise<number> {
  const parts = splitSentences(source)
    .map((r) => sliceCodepoints(source, r.start, r.end))
    .filter((t) => /[\p{L}\p{N}]/u.test(t));
  const [v, ...vs] = await embedder.embedDocuments([sentence, ...parts.slice(0, 40)], signal);
  return v ? Math.max(0, ...vs.map((w) => dot(v, w))) : 0;
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
  const out: SentenceSupport[] = [];
  for (const s of citingSentences(answer)) {
    const source = s.cites.map((n) => sourceText(n) ?? '').join('\n');
    const { lexical, missing } = lexicalSupport(s.text, source);
    const cosine = options.embedder && source ? await bestCosine(options.embedder, s.text, source, options.signal) : undefined;
    const byWords = lexical >= minLexical || (cosine !== undefined && cosine >= minCosine);
    const supported = source.length > 0 && byWords && missing.length === 0;
    out.push({ ...s, supported, lexical, missing_numbers: missing, ...(cosine !== undefined ? { cosine } : {}) });
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
