import { parseNumberAsWritten } from '@pinpoint/analysis';
import { escapeRegExp } from '@pinpoint/core';
import type { TableWords } from './lexicon/index.js';
import { unspaced } from './lexicon/index.js';

const compiled = new WeakMap<string[], RegExp>();

/**
 * One list of phrases as a pattern: whole words where spaces part words (English), any occurrence
 * where they do not (Japanese, Chinese); the longest phrase first.
 */
function pattern(list: string[], words: TableWords): RegExp {
  let re = compiled.get(list);
  if (!re) {
    const alts = [...list].sort((a, b) => b.length - a.length).map(escapeRegExp);
    const body = alts.length === 0 ? '(?!)' : `(${alts.join('|')})`;
    re = unspaced(words) ? new RegExp(body, 'u') : new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'u');
    compiled.set(list, re);
  }
  return re;
}

/** Every occurrence of the phrases. */
export const phraseRe = (list: string[], words: TableWords): RegExp => new RegExp(pattern(list, words).source, 'gu');

/** Where one of the phrases first occurs in the question (Infinity when none does), and which. */
export function phraseAt(q: string, list: string[], words: TableWords): { at: number; phrase: string } {
  const m = pattern(list, words).exec(q);
  return m ? { at: m.index, phrase: m[1] as string } : { at: Number.POSITIVE_INFINITY, phrase: '' };
}

/** Does the question say one of the phrases? */
export const says = (q: string, list: string[], words: TableWords): boolean => pattern(list, words).test(q);

/** Text a question puts in quotation marks (「」『』“”"" 《》): the name of a row or a title, in any language. */
const QUOTED = /「[^」]*」|『[^』]*』|“[^”]*”|"[^"]*"|《[^》]*》/gu;

/**
 * The question with what it quotes blanked out: 「…の合計額」 and "Greatest Hits" name a row or a
 * title, and the words inside say no operation.
 */
export const unquoted = (q: string): string => q.replace(QUOTED, (m) => ' '.repeat(m.length));

const segmenters = new Map<string, Intl.Segmenter>();
function segments(text: string, lang: string): string[] {
  let s = segmenters.get(lang);
  if (!s) {
    s = new Intl.Segmenter(lang.startsWith('zh') ? 'zh' : lang, { granularity: 'word' });
    segmenters.set(lang, s);
  }
  return [...s.segment(text)].map((x) => x.segment);
}

const MOST_JOINED = 4;

/**
 * The question with the given words taken out where they stand as words of their own (a run of up
 * to four segments that spells one), so no term spans them: "2022年の営業利益はいくらですか" keeps
 * "2022年", "営業利益". Languages that part words with spaces are returned as they are.
 */
export function without(q: string, list: string[], words: TableWords): string {
  if (!unspaced(words) || list.length === 0) return q;
  const key = `${list.length}:${list[0]}:${q}`;
  const known = recent.get(key);
  if (known !== undefined) return known;
  const out = withoutWords(q, list, words);
  // a question is read against a dozen tables: the last few readings are kept
  if (recent.size >= RECENT) recent.delete(recent.keys().next().value as string);
  recent.set(key, out);
  return out;
}

const RECENT = 16;
const recent = new Map<string, string>();

function withoutWords(q: string, list: string[], words: TableWords): string {
  const set = new Set(list);
  const parts = segments(q, words.lang);
  const out: string[] = [];
  for (let i = 0; i < parts.length; ) {
    let taken = 0;
    let joined = '';
    for (let j = i; j < Math.min(parts.length, i + MOST_JOINED); j++) {
      joined += parts[j];
      if (set.has(joined)) taken = j - i + 1;
    }
    if (taken > 0) {
      out.push(' ');
      i += taken;
    } else {
      out.push(parts[i] as string);
      i += 1;
    }
  }
  return out.join('');
}

/** A number as a question writes it: "40,000", "1.5", "1.2万", "３００" (NFKC before), "三百二十", "2000万". */
const NUMBER =
  /(\d[\d,]*(?:\.\d+)?|\.\d+|[〇零一二三四五六七八九十百千两兩]+)\s*(百万|千万|万|萬|億|亿|千|million|thousand|billion)?/u;

/** A bound the question puts on a number: above or below, whether the bound passes, and the number. */
export interface QuestionBound {
  above: boolean;
  inclusive: boolean;
  value: number;
  /** The number as written, and where the bound's words and number stand. */
  raw: string;
  /** The number says its scale ("2000万", "20 million"): it is compared with cells at their header's scale. */
  scaled: boolean;
  span: [number, number];
}

function numberNear(
  q: string,
  from: number,
  to: number,
  after: boolean,
): { raw: string; value: number; at: number; scaled: boolean } | undefined {
  const piece = after ? q.slice(to, to + 24) : q.slice(Math.max(0, from - 24), from);
  const re = after
    ? new RegExp(`^\\s*(?:the\\s+)?[$€£¥]?${NUMBER.source}`, 'u')
    : new RegExp(`${NUMBER.source}\\s*[\\p{L}%（）()]{0,6}\\s*$`, 'u');
  const m = re.exec(piece);
  if (!m?.[1]) return undefined;
  const read = parseNumberAsWritten(`${m[1]}${m[2] ? `${/^[a-z]/.test(m[2]) ? ' ' : ''}${m[2]}` : ''}`);
  if (!read || !Number.isFinite(read.value)) return undefined;
  const value = read.value;
  return { raw: m[1], value, at: after ? to + m[0].length : Math.max(0, from - 24) + m.index, scaled: (read.scale ?? 1) !== 1 };
}

/**
 * "more than 40,000", "40 or more", "100万人以上", "超过100万": the bound, read with the language's
 * words. Where spaces part words the number follows the words ("more than 40"), unless they start
 * with "or" ("40 or more"); elsewhere it stands on either side.
 */
export function boundOf(q: string, words: TableWords): QuestionBound | undefined {
  const kinds: [string[], boolean, boolean][] = [
    [words.atLeast, true, true],
    [words.atMost, false, true],
    [words.above, true, false],
    [words.below, false, false],
  ];
  for (const [list, above, inclusive] of kinds) {
    const { at, phrase } = phraseAt(q, list, words);
    if (!Number.isFinite(at)) continue;
    const end = at + phrase.length;
    const before = unspaced(words) || phrase.startsWith('or ');
    const after = !phrase.startsWith('or ');
    const near = (after ? numberNear(q, at, end, true) : undefined) ?? (before ? numberNear(q, at, end, false) : undefined);
    if (near) {
      const span: [number, number] = [Math.min(at, near.at), Math.max(end, near.at)];
      return { above, inclusive, value: near.value, raw: near.raw, scaled: near.scaled, span };
    }
  }
  return undefined;
}
