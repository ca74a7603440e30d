import { analyze } from '@pinpoint/analysis';
import { describe, expect, it } from 'vitest';
import { countTerms } from './bm25.js';
import { Tail } from './tail.js';

const texts = [
  'The steam engine uses cylinders and pistons.',
  'Olympic class ocean liners used triple expansion steam engines.',
  '負責管理馬祖國家風景區的單位為交通部觀光局。',
  'Steam rose from the engine of the liner.',
];

describe('Tail', () => {
  it('gives each term its postings in the order added, and the sorted layout a segment is written in', () => {
    const tail = new Tail();
    texts.forEach((text, doc) => {
      tail.add(doc + 1, countTerms(analyze(text)));
    });
    const byTerm = new Map<string, [number, number][]>();
    texts.forEach((text, doc) => {
      for (const [term, tf] of countTerms(analyze(text))) byTerm.set(term, [...(byTerm.get(term) ?? []), [doc + 1, tf]]);
    });
    for (const [term, postings] of byTerm) {
      const seen: [number, number][] = [];
      tail.each(term, (doc, tf) => seen.push([doc, tf]));
      expect(seen).toEqual(postings);
    }
    const { terms, start, docs, tfs } = tail.sorted();
    expect(terms).toEqual([...byTerm.keys()].sort());
    terms.forEach((term, i) => {
      const run = Array.from({ length: (start[i + 1] as number) - (start[i] as number) }, (_, j) => {
        const q = (start[i] as number) + j;
        return [docs[q], tfs[q]];
      });
      expect(run).toEqual(byTerm.get(term));
    });
    expect(tail.docs).toEqual([1, 2, 3, 4]);
  });
});
