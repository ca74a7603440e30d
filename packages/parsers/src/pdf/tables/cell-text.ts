import { groupRows } from '../lines.js';
import type { Word } from './words.js';

/** A number as tables print it: "1,577", "(1,373)", "$ 12.5", "-4%", "—". */
export const NUMBER = /^[($€£¥+\-−–\s]*\d[\d,.]*\s*%?\s*\)?[*†‡]?$|^[—–-]$/u;

/** A year heading a period column reads as a header, not as a number. */
export const YEAR = /^(?:FY\s?)?(?:19|20)\d{2}[A-Z]?$/;

/** The words of one cell in reading order, lines joined by a space. */
export function cellText(words: Word[]): string {
  return groupRows(words)
    .map((row) => row.map((w) => w.text).join(' '))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
