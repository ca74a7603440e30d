import { foldHan, hasKana, isCjkCodepoint } from '@pinpoint/analysis';
import { EN } from './en.js';
import { JA } from './ja.js';
import type { TableWords } from './lexicon.js';
import { ZH_HANS } from './zh-hans.js';
import { ZH_HANT } from './zh-hant.js';

export type { TableWords } from './lexicon.js';
export { said } from './lexicon.js';

/**
 * The words of the question's language: Japanese when it holds kana, Chinese when most of it is
 * Han (traditional when folding to simplified changes it), else English.
 */
export function lexiconFor(question: string): TableWords {
  if (hasKana(question)) return JA;
  const chars = Array.from(question).filter((ch) => /\S/u.test(ch));
  const han = chars.filter((ch) => isCjkCodepoint(ch.codePointAt(0) ?? 0)).length;
  if (han < 2 || han * 3 < chars.length) return EN;
  return foldHan(question) === question ? ZH_HANS : ZH_HANT;
}

/** Is the language written without spaces between words? */
export const unspaced = (words: TableWords): boolean => words.lang !== 'en';
