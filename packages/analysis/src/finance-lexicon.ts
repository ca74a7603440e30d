import { FINANCE_TERM_GROUPS, type FinanceTermGroup } from './finance-terms.js';
import { foldHanChars } from './fold.js';
import { stemWord } from './latin.js';
import { hasKana } from './scripts.js';

/**
 * Query expansion with the financial-statement lexicon (finance-terms.ts): the line items a
 * question names, and the other names of each, to be searched with a lower weight.
 *
 * Matching is on normalised text: NFKC, lower case; Latin names word by word with Porter stems
 * (plurals and inflections fold: "capital expenditures" = "capital expenditure") and a few filler
 * words dropped (of, the, and …); CJK names as substrings after Traditional→Simplified folding
 * (營業收入 = 营业收入) with spaces and ・ removed (キャッシュ・フロー = キャッシュフロー). Where names
 * overlap the longest wins (売上総利益 is gross profit, not 売上; "cost of sales" is not "sales").
 *
 * Weights: an expansion in the language of the name it came from weighs `SAME_LANGUAGE` (0.5),
 * one in another language `OTHER_LANGUAGE` (0.35) — both below the question's own words (1).
 */
export const FINANCE_EXPANSION_WEIGHTS = Object.freeze({ sameLanguage: 0.5, otherLanguage: 0.35 });

export type FinanceLanguage = 'en' | 'ja' | 'zh';
const LANGUAGES: readonly FinanceLanguage[] = ['en', 'ja', 'zh'];

export interface FinanceExpansion {
  /** The group's id (e.g. 'capital-expenditure'). */
  group: string;
  /** A name of the group the text did not use, to add to the query. */
  term: string;
  lang: FinanceLanguage;
  /** The lexicon name found in the text. */
  matched: string;
  weight: number;
}

interface Name {
  group: FinanceTermGroup;
  name: string;
  lang: FinanceLanguage;
  key: string;
  /** Latin names: the key's words. */
  words?: string[];
}

const FILLER = new Set(['a', 'an', 'the', 'of', 'for', 'to', 'in', 'by', 'from', 'on', 'at', 'and', 'or', 'its', 'our', 's']);
const LATIN_WORD = /[a-z0-9]+(?:[&/][a-z0-9]+)*/g;

/** Stemmed words of a Latin text ("R&D", "PP&E", "D/E" stay one word each). */
function latinWords(text: string): string[] {
  const norm = text.normalize('NFKC').toLowerCase().replace(/\s&\s/g, ' and ');
  const out: string[] = [];
  for (const m of norm.matchAll(LATIN_WORD)) if (!FILLER.has(m[0])) out.push(stemWord(m[0]));
  return out;
}

/** The CJK matching form: NFKC, lower case, Traditional folded to Simplified, no spaces or middle dots. */
function cjkKey(text: string): string {
  return foldHanChars(text.normalize('NFKC').toLowerCase()).replace(/[\s・·･]/gu, '');
}

const CJK_CHAR = /[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u3005]|[\u{20000}-\u{3134f}]/u;

function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

interface LexiconIndex {
  names: Name[];
  /** Names by group id. */
  byGroup: Map<string, Name[]>;
  /** Latin names by their first word. */
  byFirstWord: Map<string, Name[]>;
  /** CJK names by their first UTF-16 unit. */
  byFirstUnit: Map<number, Name[]>;
}

let index: LexiconIndex | undefined;

function lexicon(): LexiconIndex {
  if (index) return index;
  const built: LexiconIndex = { names: [], byGroup: new Map(), byFirstWord: new Map(), byFirstUnit: new Map() };
  for (const group of FINANCE_TERM_GROUPS) {
    for (const lang of LANGUAGES) {
      for (const name of group[lang]) {
        const entry = hasCjk(name) ? cjkEntry(group, name, lang) : latinEntry(group, name, lang);
        built.names.push(entry);
        built.byGroup.set(group.id, [...(built.byGroup.get(group.id) ?? []), entry]);
        if (entry.words) {
          const first = entry.words[0] as string;
          built.byFirstWord.set(first, [...(built.byFirstWord.get(first) ?? []), entry]);
        } else {
          const first = entry.key.charCodeAt(0);
          built.byFirstUnit.set(first, [...(built.byFirstUnit.get(first) ?? []), entry]);
        }
      }
    }
  }
  index = built;
  return built;
}

function latinEntry(group: FinanceTermGroup, name: string, lang: FinanceLanguage): Name {
  const words = latinWords(name);
  return { group, name, lang, key: words.join(' '), words };
}

function cjkEntry(group: FinanceTermGroup, name: string, lang: FinanceLanguage): Name {
  return { group, name, lang, key: cjkKey(name) };
}

/** Every lexicon name with its matching key (for tests and review). */
export function financeLexiconNames(): ReadonlyArray<{ group: string; name: string; lang: FinanceLanguage; key: string }> {
  return lexicon().names.map(({ group, name, lang, key }) => ({ group: group.id, name, lang, key }));
}

interface Hit {
  start: number;
  end: number;
  entry: Name;
}

function latinHits(text: string, lex: LexiconIndex): Hit[] {
  const words = latinWords(text);
  const hits: Hit[] = [];
  words.forEach((word, i) => {
    for (const entry of lex.byFirstWord.get(word) ?? []) {
      const w = entry.words as string[];
      if (w.every((x, k) => words[i + k] === x)) hits.push({ start: i, end: i + w.length, entry });
    }
  });
  return hits;
}

function cjkHits(text: string, lex: LexiconIndex): Hit[] {
  if (!hasCjk(text)) return [];
  const key = cjkKey(text);
  const hits: Hit[] = [];
  for (let i = 0; i + 1 < key.length; i++) {
    const bucket = lex.byFirstUnit.get(key.charCodeAt(i));
    if (bucket === undefined) continue;
    for (const entry of bucket) {
      if (key.startsWith(entry.key, i)) hits.push({ start: i, end: i + entry.key.length, entry });
    }
  }
  return hits;
}

/**
 * Longest hits first, none overlapping one already kept. Where a Japanese and a Chinese name fold
 * to the same key (流動資産 / 流动资产), the one of the text's language is kept (kana → Japanese).
 */
function longest(hits: Hit[], preferred: FinanceLanguage): Hit[] {
  const kept: Hit[] = [];
  const rank = (h: Hit) => (h.entry.lang === preferred ? 0 : 1);
  for (const h of [...hits].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start || rank(a) - rank(b))) {
    if (kept.every((k) => h.end <= k.start || h.start >= k.end)) kept.push(h);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** The lexicon names a text says: its Latin and its CJK names, longest first where they overlap. */
function namesIn(text: string, lex: LexiconIndex): Name[] {
  const hits = [...longest(latinHits(text, lex), 'en'), ...longest(cjkHits(text, lex), hasKana(text) ? 'ja' : 'zh')];
  return hits.map((h) => h.entry);
}

/**
 * The line items `text` names and, for each, the group's other names as weighted expansions.
 * `lang` keeps only expansions in the given language(s) (the languages of the collection).
 */
export function expandFinanceTerms(text: string, lang?: FinanceLanguage | readonly FinanceLanguage[]): FinanceExpansion[] {
  const lex = lexicon();
  const wanted = lang === undefined ? LANGUAGES : typeof lang === 'string' ? [lang] : lang;
  const found = namesIn(text, lex);
  const out: FinanceExpansion[] = [];
  const seenKeys = new Set(found.map((e) => e.key));
  for (const entry of found) {
    for (const other of lex.byGroup.get(entry.group.id) ?? []) {
      if (seenKeys.has(other.key) || !wanted.includes(other.lang)) continue;
      seenKeys.add(other.key);
      const weight = other.lang === entry.lang ? FINANCE_EXPANSION_WEIGHTS.sameLanguage : FINANCE_EXPANSION_WEIGHTS.otherLanguage;
      out.push({ group: entry.group.id, term: other.name, lang: other.lang, matched: entry.name, weight });
    }
  }
  return out;
}

/** A measure a text names and the line items its formula reads, named in the text's language. */
export interface FinanceMeasure {
  /** The lexicon name found ("operating margin", 営業利益率). */
  name: string;
  /** One name per line item the measure is computed from ("operating income", "revenue"). */
  parts: string[];
}

/** The measures computed from line items (`of` in the lexicon) that `text` names, longest first. */
export function financeMeasures(text: string): FinanceMeasure[] {
  const lex = lexicon();
  const out: FinanceMeasure[] = [];
  for (const entry of namesIn(text, lex)) {
    const of = entry.group.of;
    if (!of || out.some((m) => m.name === entry.name)) continue;
    const parts = of.map((id) => {
      const names = lex.byGroup.get(id) ?? [];
      return (names.find((n) => n.lang === entry.lang) ?? names[0])?.name ?? id;
    });
    out.push({ name: entry.name, parts });
  }
  return out.sort((a, b) => b.name.length - a.name.length);
}

/** A line item or measure a text names: the lexicon group, the name found and its language. */
export interface FinanceGroupMention {
  group: string;
  name: string;
  lang: FinanceLanguage;
}

/** The lexicon groups a text names, in the order it names them, longest names first where they overlap. */
export function financeGroupsIn(text: string): FinanceGroupMention[] {
  return namesIn(text, lexicon()).map((e) => ({ group: e.group.id, name: e.name, lang: e.lang }));
}

/** The primary statement a lexicon line item is read from, if the lexicon says. */
export function financeGroupStatement(group: string): 'income' | 'balance' | 'cash-flow' | undefined {
  return FINANCE_TERM_GROUPS.find((g) => g.id === group)?.statement;
}

/** Every name of a lexicon group, in every language (empty for an unknown group). */
export function financeGroupNames(group: string): string[] {
  return (lexicon().byGroup.get(group) ?? []).map((e) => e.name);
}
