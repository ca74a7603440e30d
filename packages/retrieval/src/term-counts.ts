import { analyze } from '@pinpoint/analysis';
import { transferring } from '@pinpoint/threads';

/**
 * Each text's distinct terms with their counts (in first-seen order, as countTerms gives them) and
 * its length in terms, packed into flat arrays so a batch crosses threads in one message.
 */
export interface PackedTermCounts {
  terms: string[];
  tf: Int32Array;
  /** Where each text's terms end in `terms`. */
  ends: Int32Array;
  lens: Int32Array;
}

export function packTermCounts(texts: string[], analyzeText: (text: string) => string[] = analyze): PackedTermCounts {
  const terms: string[] = [];
  const counts: number[] = [];
  const ends = new Int32Array(texts.length);
  const lens = new Int32Array(texts.length);
  for (const [i, text] of texts.entries()) {
    const all = analyzeText(text);
    const at = new Map<string, number>();
    for (const t of all) {
      const slot = at.get(t);
      if (slot === undefined) {
        at.set(t, terms.length);
        terms.push(t);
        counts.push(1);
      } else counts[slot] = (counts[slot] as number) + 1;
    }
    ends[i] = terms.length;
    lens[i] = all.length;
  }
  return { terms, tf: Int32Array.from(counts), ends, lens };
}

export function termCountHandlers() {
  return {
    count: (texts: string[]) => {
      const p = packTermCounts(texts);
      return transferring(p, [p.tf.buffer as ArrayBuffer, p.ends.buffer as ArrayBuffer, p.lens.buffer as ArrayBuffer]);
    },
  };
}

export type TermCountHandlers = ReturnType<typeof termCountHandlers>;
