import { analyze, hasKana, isCjkCodepoint } from '@pinpoint/analysis';
import type { Citation, GenerationSource } from '@pinpoint/core';
import { REFUSAL_MARKER } from '@pinpoint/providers';
import type { RankedChunk } from './candidates.js';
import { chunkSentences } from './candidates.js';
import { sentenceAnchor } from './sentence-anchor.js';

/** [1], [2][3], [1, 3], [1、2] — the model's citation markers. */
export const CITATION_MARKER = /\[(\d{1,3}(?:\s*[,、，]\s*\d{1,3})*)\]/g;

/**
 * The question's language for the answer and the refusal: ja with kana, ko with Hangul, zh when mostly
 * Han; otherwise 'und' (undetermined: the prompt then asks for the question's own language).
 */
export function questionLanguage(question: string): string {
  if (hasKana(question)) return 'ja';
  if (/\p{Script=Hangul}/u.test(question)) return 'ko';
  const chars = Array.from(question);
  const han = chars.filter((ch) => isCjkCodepoint(ch.codePointAt(0) ?? 0)).length;
  return han * 2 > chars.filter((ch) => /\S/u.test(ch)).length ? 'zh' : 'und';
}

/** Numbered sources for the prompt: n is the chunk's position in the list (1-based). */
export function toGenerationSources(chunks: RankedChunk[]): GenerationSource[] {
  return chunks.map((c, i) => ({
    n: i + 1,
    file: c.file,
    text: c.chunk.text,
    ...(c.page_label !== undefined ? { page_label: c.page_label } : {}),
  }));
}

function isRefusal(text: string): boolean {
  return text.includes(REFUSAL_MARKER);
}

/**
 * Renumbers citation markers in order of first use and drops numbers that name no source.
 * Returns the rewritten text and the original numbers in their new order.
 */
export function renumberCitations(text: string, sourceCount: number): { text: string; order: number[] } {
  const order: number[] = [];
  const rewritten = text.replace(CITATION_MARKER, (_m, list: string) => {
    const nums = list
      .split(/[,、，]/)
      .map((s) => Number(s.trim()))
      .filter((n) => n >= 1 && n <= sourceCount);
    const mapped = [...new Set(nums)].map((n) => {
      if (!order.includes(n)) order.push(n);
      return order.indexOf(n) + 1;
    });
    return mapped.map((n) => `[${n}]`).join('');
  });
  return { text: rewritten.replace(/[ \t]+([.。,，!?！？])/g, '$1').trim(), order };
}

function overlap(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const t of a) if (b.has(t)) n++;
  return n;
}

/** A citation of the whole chunk, anchored on its first element (when no sentence can be singled out). */
export function elementCitation(chunk: RankedChunk, n: number): Citation {
  const element = chunk.elements.find((e) => e.element_id === chunk.chunk.elements[0]?.element_id) ?? chunk.elements[0];
  return {
    n,
    document_id: chunk.chunk.document_id,
    version_id: chunk.chunk.version_id,
    chunk_id: chunk.chunk.chunk_id,
    element_id: element?.element_id ?? chunk.chunk.elements[0]?.element_id ?? '',
    file: chunk.file,
    ...(chunk.chunk.page_index !== undefined ? { page_index: chunk.chunk.page_index } : {}),
    ...(chunk.page_label !== undefined ? { page_label: chunk.page_label } : {}),
    anchor: element?.anchor ?? {
      kind: 'text',
      artifact: 'original',
      unit: 'codepoint',
      start: 0,
      end: 0,
      text_sha256: '0'.repeat(64),
    },
    quote: Array.from(chunk.chunk.text).slice(0, 300).join(''),
    precision: element ? 'element' : 'unresolved',
  };
}

/** The citation for source `chunk`, numbered n, anchored on its sentence closest to what cites it. */
function citationFor(chunk: RankedChunk, n: number, citingText: string): Citation {
  const terms = new Set(analyze(citingText.replace(CITATION_MARKER, ' ')));
  const sentences = chunkSentences(chunk);
  let best = sentences[0];
  for (const s of sentences) if (best && overlap(terms, s.terms) > overlap(terms, best.terms)) best = s;
  if (!best) return elementCitation(chunk, n);
  const { anchor, precision } = sentenceAnchor(best.element, best.start, best.end);
  return {
    ...elementCitation(chunk, n),
    element_id: best.element.element_id,
    anchor,
    quote: best.text,
    precision,
  };
}

export interface PostCheckedAnswer {
  refused: boolean;
  refusal_reason?: 'model-refused' | 'no-citations';
  answer: string;
  /** Only the sources the answer cites, numbered in order of first use. */
  citations: Citation[];
  /** The cited chunks in citation order (citations[i] comes from sources[i]). */
  sources: RankedChunk[];
}

/** The post-check: a refusal carries no sources; an answer that cites nothing is treated as one. */
export function postCheck(raw: string, chunks: RankedChunk[], refusal: string): PostCheckedAnswer {
  if (isRefusal(raw)) {
    const said = raw
      .slice(raw.indexOf(REFUSAL_MARKER) + REFUSAL_MARKER.length)
      .replace(CITATION_MARKER, '')
      .trim();
    return { refused: true, refusal_reason: 'model-refused', answer: said || refusal, citations: [], sources: [] };
  }
  const { text, order } = renumberCitations(raw, chunks.length);
  if (order.length === 0) return { refused: true, refusal_reason: 'no-citations', answer: refusal, citations: [], sources: [] };
  const sources = order.map((n) => chunks[n - 1] as RankedChunk);
  const citations = sources.map((chunk, i) => {
    const citing = text
      .split(/(?<=[.!?。！？])\s*/u)
      .filter((s) => s.includes(`[${i + 1}]`))
      .join(' ');
    return citationFor(chunk, i + 1, citing || text);
  });
  return { refused: false, answer: text, citations, sources };
}

/**
 * How much of a streamed model text is safe to show: all of it once `final`; before that, not an opened
 * `[` that may still become a citation marker (shorter than `markerMax`), and nothing while the text may
 * still be, or holds, the refusal marker.
 */
export function shownEnd(raw: string, sent: number, final: boolean, markerMax: number): number {
  if (final) return raw.length;
  if (REFUSAL_MARKER.startsWith(raw.trimStart().slice(0, REFUSAL_MARKER.length)) || raw.includes(REFUSAL_MARKER)) return sent;
  const open = raw.lastIndexOf('[');
  return open >= sent && !raw.includes(']', open) && raw.length - open < markerMax ? open : raw.length;
}
