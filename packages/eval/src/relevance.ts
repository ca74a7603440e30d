/**
 * The relevance rule of ../../../../shared/DESIGN.md §6 (DESIGN.md §6): both sides normalised
 * (NFKC, all whitespace removed, lower case), then file, page, answer and quote conditions.
 */
export interface GoldRef {
  file: string;
  page_index?: number;
  quote?: string;
  /** Table sets: A1 references (row 1 = header row) of the cells whose text is the answer. */
  cells?: string[];
}

export interface RetrievedRef {
  file: string;
  page_index?: number;
  text: string;
}

const QUOTE_SHINGLE = 12;

export function normalizeForMatch(text: string): string {
  return text.normalize('NFKC').replace(/\s+/gu, '').toLowerCase();
}

/** True when `a` and `b` share a substring of `n` codepoints (or `a` contains `b` when b is shorter). */
function sharesSubstring(text: string, quote: string, n = QUOTE_SHINGLE): boolean {
  const q = Array.from(quote);
  if (q.length <= n) return text.includes(quote);
  for (let i = 0; i + n <= q.length; i++) {
    if (text.includes(q.slice(i, i + n).join(''))) return true;
  }
  return false;
}

export function isRelevant(chunk: RetrievedRef, gold: GoldRef[], answers: string[]): boolean {
  const text = normalizeForMatch(chunk.text);
  if (answers.length > 0 && !answers.some((a) => text.includes(normalizeForMatch(a)))) return false;
  return gold.some(
    (g) =>
      g.file === chunk.file &&
      (g.page_index === undefined || g.page_index === chunk.page_index) &&
      (g.quote === undefined || sharesSubstring(text, normalizeForMatch(g.quote))),
  );
}
