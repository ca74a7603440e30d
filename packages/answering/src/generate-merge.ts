import type { Citation } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type { RankedChunk } from './candidates.js';
import type { GeneratedAnswer } from './generate-answer.js';

/**
 * Merges the answers to the parts of a compound question (see rewriteQuery): texts joined in part
 * order, citations renumbered across parts by first use (one number per source chunk), sentence
 * ranges shifted. A part that was refused keeps its sentence and adds no sources; the whole is a
 * refusal only when every part is.
 */
export function mergeAnswers(parts: GeneratedAnswer[]): GeneratedAnswer {
  const first = parts[0];
  if (!first) throw createError('PP_INTERNAL', 'mergeAnswers needs the answer to at least one part.');
  if (parts.every((p) => p.refused)) return { ...first, answer: parts.map((p) => p.answer).join(' ') };
  const numberOf = new Map<string, number>();
  const citations: Citation[] = [];
  const sources: RankedChunk[] = [];
  const sentences: GeneratedAnswer['sentences'] = [];
  const texts: string[] = [];
  let offset = 0;
  for (const part of parts) {
    const map = new Map<number, number>();
    for (const [i, c] of part.citations.entries()) {
      let n = numberOf.get(c.chunk_id);
      if (n === undefined) {
        n = numberOf.size + 1;
        numberOf.set(c.chunk_id, n);
        citations.push({ ...c, n });
        const source = part.sources[i];
        if (source) sources.push(source);
      } else if (c.supported === false) {
        citations[n - 1] = { ...(citations[n - 1] as Citation), supported: false };
      }
      map.set(c.n, n);
    }
    const text = part.answer.replace(/\[(\d+)\]/g, (m, d: string) => (map.has(Number(d)) ? `[${map.get(Number(d))}]` : m));
    for (const s of part.sentences)
      sentences.push({ ...s, start: s.start + offset, end: s.end + offset, cites: s.cites.map((n) => map.get(n) ?? n) });
    texts.push(text);
    offset += Array.from(text).length + 1;
  }
  return { refused: false, answer: texts.join(' '), citations, sources, sentences, generator: first.generator };
}
