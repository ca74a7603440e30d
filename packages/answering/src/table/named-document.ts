import { escapeRegExp } from '@pinpoint/core';
import type { TableWords } from './lexicon/index.js';
import { unspaced } from './lexicon/index.js';
import type { QaTable } from './model.js';
import { termsOf } from './model.js';
import { without } from './question-words.js';

/**
 * Terms a name is said in, at the least: a company's name gives a word and its character pairs
 * (「キーエンス」: six); one common word a caption happens to say ("company") is no name.
 */
const NAME_TERMS = 3;

/** A text as names are compared: NFKC, lower case, no spaces, punctuation or symbols (「ＭＳ＆ＡＤ」 is "msad"). */
const nameText = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]/gu, '');

/** The terms and text a table holds in its headers and cells, not its title: what the table itself says. */
const bodies = new WeakMap<QaTable, { terms: Set<string>; text: string }>();
function bodyOf(table: QaTable): { terms: Set<string>; text: string } {
  let body = bodies.get(table);
  if (!body) {
    const terms = new Set(table.columns.flatMap((c) => [...c.terms]));
    const texts = table.columns.map((c) => c.name);
    for (const r of table.rows)
      for (const c of r.cells.values()) {
        for (const t of c.terms) terms.add(t);
        texts.push(c.text);
      }
    body = { terms, text: nameText(texts.join('\n')) };
    bodies.set(table, body);
  }
  return body;
}

/** The characters of a name: letters, digits and the marks names join words with (「ＭＳ＆ＡＤ」, "AT&T", 「セブン・アイ」). */
const NAME_RUN = /[\p{L}\p{N}&・.'’-]+$/u;
const NAME_START = /^[\p{L}\p{N}&・.'’-]+/u;
/** Capitalised words before a legal form where spaces part words: "the revenue of Apple Inc." names Apple. */
const CAPITALISED_RUN = /(?:\p{Lu}[\p{L}\p{N}&.'’-]*\s+){1,4}$/u;
/** A short Han word a name may follow without a break (「上年佳能电池有限公司」: 上年 is the question's). */
const HAN_HEAD = /^\p{Script=Han}{1,2}/u;

/**
 * The company a question names by its legal form (「住友電気工業株式会社の…」, 「株式会社　クボタの…」,
 * "Apple Inc."), as the keys a document that is about it holds: the name's characters before the
 * form — the question's particles and words of form taken out first, so 「我想了解下」 is no part of
 * it — or after it (「株式会社クボタ」); where words are not spaced, also the name without a Han word
 * of one or two characters in front when four or more are left (「上年」 may be the question's).
 * Undefined when the question says no legal form of its language.
 */
export function namedCompany(question: string, words: TableWords): string[] | undefined {
  const spaced = !unspaced(words);
  const q = spaced ? question.normalize('NFKC') : without(question.normalize('NFKC'), [...words.particles, ...words.form], words);
  const lower = q.toLowerCase();
  for (const form of words.legalForms) {
    const at = spaced ? wordAt(lower, form) : lower.indexOf(form);
    if (at < 0) continue;
    const before = spaced ? (CAPITALISED_RUN.exec(q.slice(0, at))?.[0] ?? '') : (NAME_RUN.exec(q.slice(0, at))?.[0] ?? '');
    let key = nameText(before);
    if (key.length < 2) key = nameText(NAME_START.exec(q.slice(at + form.length).trimStart())?.[0] ?? '');
    if (key.length < 2) continue;
    const head = spaced ? undefined : HAN_HEAD.exec(key)?.[0];
    const tails = [1, 2].filter((n) => head !== undefined && head.length >= n).map((n) => key.slice(n));
    return [key, ...tails.filter((t) => [...t].length >= 4)];
  }
  return undefined;
}

/** Where a word stands whole in a spaced text, or -1. */
function wordAt(text: string, word: string): number {
  const m = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, 'u').exec(text);
  return m ? m.index : -1;
}

/** Does a table's document — its names (see `documentMisses`), or the table itself — hold the company the question names? */
export function holdsCompany(keys: string[], table: QaTable, names: string[]): boolean {
  const said = nameText(names.join(' '));
  return keys.some((k) => said.includes(k) || bodyOf(table).text.includes(k));
}

/**
 * How far each table's document misses the document a question names (0..1, one per table): the
 * question's terms that some document's names say and no table's headers or cells do — a company's
 * name in 「三菱商事株式会社の2020年…」 — weighed as the index weighs them: the share of the
 * question's weight that names this document lacks. A document's names are its identity's (the
 * company and report it is, read from its cover, metadata or file name, or set by an editor); its
 * title where it has none. All zero when the question names no document.
 */
export function documentMisses(
  question: string,
  tables: { table: QaTable; names: string[] }[],
  weights: Map<string, number>,
  words: TableWords,
): number[] {
  const asked = termsOf(without(question.normalize('NFKC').toLowerCase(), words.particles, words));
  const titles = tables.map((t) => termsOf(t.names.join(' ')));
  const said = new Set(tables.flatMap((t) => [...bodyOf(t.table).terms]));
  const naming = [...asked].filter(
    (t) => !said.has(t) && titles.some((title) => title.has(t)) && !titles.every((title) => title.has(t)),
  );
  const weight = (t: string): number => weights.get(t) || 1;
  // a name weighs as its share of the question: one common word a caption says is hardly a name
  const total = [...asked].reduce((s, t) => s + weight(t), 0);
  if (naming.length < NAME_TERMS || total === 0) return tables.map(() => 0);
  return titles.map((title) => naming.reduce((s, t) => (title.has(t) ? s : s + weight(t)), 0) / total);
}
