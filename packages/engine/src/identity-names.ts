import { escapeRegExp } from '@pinpoint/core';

/**
 * Names as keys: the way a question's words and a document's names meet. "American Express
 * Company", "AMERICANEXPRESS" and "American Express'" all key as "americanexpress"; "トヨタ自動車株式会社"
 * keys as "トヨタ自動車". Legal forms, "&"/"and", possessives and punctuation do not count.
 */

/** Legal forms and generic company words dropped from the end of a name (en; ja/zh below). */
const LEGAL_FORMS = new Set([
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'companies',
  'plc',
  'ltd',
  'limited',
  'llc',
  'lp',
  'nv',
  'sa',
  'ag',
  'se',
  'the',
]);
const CJK_LEGAL_FORMS = /(株式会社|有限会社|\(株\)|（株）|股份有限公司|有限责任公司|有限責任公司|有限公司|集团|集團)/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const JOINERS = new Set(['&', 'and', 'n']);

/** The words of a name or of a question, as written (case kept). */
export function nameWords(text: string): string[] {
  return text.normalize('NFKC').match(/[\p{L}\p{N}][\p{L}\p{N}'’.&-]*|&/gu) ?? [];
}

/** One word as a key part: lower case, no possessive, letters and digits only. */
function wordKey(word: string): string {
  return word
    .toLowerCase()
    .replace(/['’]s?$/u, '')
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** The key of a name's words: legal forms dropped from the end, joiners dropped. Empty when nothing is left. */
function wordsKey(words: string[]): string {
  const keys = words.map(wordKey).filter((k) => k.length > 0);
  while (keys.length > 1 && LEGAL_FORMS.has(keys[keys.length - 1] as string)) keys.pop();
  if (keys.length > 1 && keys[0] === 'the') keys.shift();
  return keys.filter((k, i) => !(JOINERS.has(k) && i > 0 && i < keys.length - 1)).join('');
}

/** The key a document name is matched by, or undefined when it is too short to name anything. */
export function nameKey(name: string): string | undefined {
  const text = name.normalize('NFKC');
  if (CJK.test(text)) {
    const key = text.replace(CJK_LEGAL_FORMS, '').replace(/[\s\p{P}]/gu, '');
    return [...key].length >= 2 ? key : undefined;
  }
  const key = wordsKey(nameWords(text));
  return key.length >= 2 ? key : undefined;
}

/** A run of a question's words that keys as a name, with the words as the question wrote them. */
export interface NamedSpan {
  key: string;
  text: string;
}

const MAX_SPAN = 5;

/**
 * Every run of 1–5 question words as a key, when it could be a name: a name is written with a
 * capital or a digit ("Block's", "3M"), so "a block of shares" names no company called Block.
 */
export function questionSpans(question: string): NamedSpan[] {
  const words = nameWords(question);
  const out: NamedSpan[] = [];
  for (let i = 0; i < words.length; i++) {
    const first = words[i] as string;
    if (!/^[\p{Lu}\p{N}]/u.test(first)) continue;
    for (let j = i + 1; j <= Math.min(words.length, i + MAX_SPAN); j++) {
      const span = words.slice(i, j);
      const key = wordsKey(span);
      if (key.length >= 2) out.push({ key, text: span.join(' ').replace(/['’]s?$/u, '') });
    }
  }
  return out;
}

/** CJK names are found inside the question's text (no spaces to split words by). */
export function cjkNameIn(question: string, key: string): boolean {
  if (!CJK.test(key)) return false;
  const text = question.normalize('NFKC').replace(/\s/gu, '');
  // a katakana name inside a longer katakana word is another word (リズム in ジャーナリズム)
  const kana = /^\p{Script=Katakana}/u.test(key) ? '\\p{Script=Katakana}ー' : '';
  if (!kana) return text.includes(key);
  const escaped = escapeRegExp(key);
  return new RegExp(`(?<![${kana}])${escaped}(?![${kana}])`, 'u').test(text);
}

/** A name's words as the blend below reads them: lower case, legal forms and joiners left out. */
function blendWords(name: string): string[] {
  const words = nameWords(name.normalize('NFKC'))
    .map((w) => w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ''))
    .filter((w) => w.length > 0 && !JOINERS.has(w) && w !== 'of');
  while (words.length > 1 && LEGAL_FORMS.has(words[words.length - 1] as string)) words.pop();
  return words;
}

/** True when `key` is the words' beginnings, two letters or more of each, in order ("amex": American Express). */
function blends(key: string, words: string[]): boolean {
  if (words.length === 0) return key.length === 0;
  const [first, ...rest] = words as [string, ...string[]];
  for (let n = Math.min(first.length, key.length); n >= 2; n--) {
    if (first.startsWith(key.slice(0, n)) && blends(key.slice(n), rest)) return true;
  }
  return false;
}

/**
 * The question's words that short-name a name of two words or more by their beginnings, as
 * companies are called ("Amex" for American Express, "FedEx" for Federal Express): a capitalised
 * word of three letters or more.
 */
export function blendedIn(question: string, name: string): string | undefined {
  const words = blendWords(name);
  if (words.length < 2) return undefined;
  return nameWords(question)
    .map((w) => w.replace(/['’]s?$/u, ''))
    .find((w) => /^\p{Lu}[\p{L}]{2,}$/u.test(w) && blends(w.toLowerCase(), words));
}
