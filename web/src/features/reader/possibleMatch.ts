import type { Element } from '../../api/types.js';

/** Shorter quotes match too much by chance to be worth showing. */
const MIN_QUOTE_CODEPOINTS = 8;

export interface PossibleMatch {
  /** The first element of the other version whose text contains the quote. */
  element: Element;
  /** How many elements contain it: more than one means the place is ambiguous. */
  count: number;
}

function normalise(text: string): string {
  return text.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/**
 * Looks for a citation's quote in another version's elements (whitespace-insensitive, exact
 * otherwise). A hit is only a possible match: the citation itself stays on the version it was
 * made on, so callers show it labelled and never as a highlight.
 */
export function findPossibleMatch(quote: string, elements: readonly Element[]): PossibleMatch | null {
  const needle = normalise(quote);
  if ([...needle].length < MIN_QUOTE_CODEPOINTS) return null;
  const hits = elements.filter((e) => normalise(e.text).includes(needle));
  const first = hits[0];
  return first ? { element: first, count: hits.length } : null;
}
