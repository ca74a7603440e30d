import { parseHanNumeral } from './han-numerals.js';
import { englishScale, HAN_SCALE_CHARS, hanScale, unitAt } from './number-units.js';

/**
 * Numbers as people write them in tables and questions (en/ja/zh): 1,234 · １，２３４ · (1,234) ·
 * △123 ▲123 −123 (negatives) · 12.5% · $1,577 · ¥300 · 1.2万 · 3億 · 3亿 · 1兆 · 1,234百万円 ·
 * $1.5 billion · 三百二十 · 二千二十二 · 一万二千 · 两百 · 五十% · 百分之五十 · 3割 / 三成 (30 %) ·
 * 約1,200 / 100人左右 (approximate).
 */
export interface WrittenNumber {
  /** The value with sign and scale applied (1.2万 → 12000; 12.5% → 12.5). */
  value: number;
  /** Canonical unit (see number-units.ts): 'USD', 'JPY', 'CNY', '¥', '%', 'km²', '人' … */
  unit?: string;
  /** The multiplier a scale word applied (万 → 1e4, 百万 → 1e6, million → 1e6). */
  scale?: number;
  negative: boolean;
  /** Written as an approximation (約1,200 / 约100人 / about $5 million / 100人左右). */
  approximate?: true;
}

/** Characters beyond which a cell is text, not a number. */
const MAX_LENGTH = 64;
const NEGATIVE_SIGNS = new Set(['-', '−', '–', '△', '▲', '▵', '▴']);
const ARABIC = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$|^\.\d+$/;
const HAN_BODY = new RegExp(`^[\\d.,〇零一二两兩三四五六七八九拾佰仟${HAN_SCALE_CHARS}]+$`, 'u');
const TRAILING_HAN_SCALE = new RegExp(`^(.*?\\d)([${HAN_SCALE_CHARS}]+)$`, 'u');
const TRAILING_WORD_SCALE = /^(.*?\d)\s*([a-z]+)$/i;

interface Parts {
  body: string;
  negative: boolean;
  unit?: string;
  /** 3割 / 三成 = 30 %: the body counts tenths. */
  factor?: number;
  approximate?: true;
}

const APPROX_BEFORE = /^(?:約|约|大約|大约|およそ|概ね|about|approximately|approx\.?|around|roughly|nearly|~|〜|≈)\s*/iu;
const APPROX_AFTER = /\s*(?:程度|前後|ほど|左右|上下)$/u;
const TENTHS = /^(.*[\d〇零一二两兩三四五六七八九十])\s*[割成]$/u;

/** Approximation words, 百分之 (percent) and 割/成 (tenths) around the number. */
function readWords(text: string): { s: string; approximate: boolean; unit?: string; factor?: number } {
  let s = text;
  let approximate = false;
  if (APPROX_BEFORE.test(s)) [s, approximate] = [s.replace(APPROX_BEFORE, ''), true];
  if (APPROX_AFTER.test(s)) [s, approximate] = [s.replace(APPROX_AFTER, ''), true];
  if (s.startsWith('百分之')) return { s: s.slice(3), approximate, unit: '%' };
  const tenths = TENTHS.exec(s);
  if (tenths) return { s: tenths[1] as string, approximate, unit: '%', factor: 10 };
  return { s, approximate };
}

/** Strip signs, brackets and units from both ends; what is left is the number (and a scale). */
function stripAround(text: string): Parts | null {
  const words = readWords(text);
  let s = words.s;
  let negative = false;
  let unit: string | undefined = words.unit;
  for (let changed = true; changed && s.length > 0; ) {
    changed = false;
    const wrapped = /^\((.*)\)$/su.exec(s);
    if (wrapped) [s, negative, changed] = [(wrapped[1] as string).trim(), true, true];
    if (NEGATIVE_SIGNS.has(s.charAt(0))) [s, negative, changed] = [s.slice(1).trim(), true, true];
    else if (s.startsWith('+')) [s, changed] = [s.slice(1).trim(), true];
    const lead = unitAt(s, false);
    if (lead && !/^\d/.test(s) && !/^[a-z]/i.test(s.charAt(lead.length)))
      [s, unit, changed] = [s.slice(lead.length).trim(), lead.unit, true];
    const tail = /\d|[〇零一二两兩三四五六七八九十百千万萬億亿兆]/.test(s) ? unitAt(s, true) : null;
    if (tail && unit === undefined && tail.length < s.length)
      [s, unit, changed] = [s.slice(0, s.length - tail.length).trim(), tail.unit, true];
  }
  if (s.length === 0) return null;
  const parts: Parts = { body: s, negative };
  if (unit !== undefined) parts.unit = unit;
  if (words.factor !== undefined) parts.factor = words.factor;
  if (words.approximate) parts.approximate = true;
  return parts;
}

/** The number of `body` and the scale its suffix applies. */
function readBody(body: string): { value: number; scale?: number } | null {
  if (ARABIC.test(body)) return { value: Number(body.replace(/,/g, '')) };
  const han = TRAILING_HAN_SCALE.exec(body);
  if (han && ARABIC.test(han[1] as string)) {
    const scale = hanScale(han[2] as string);
    if (scale !== undefined) return { value: Number((han[1] as string).replace(/,/g, '')) * scale, scale };
  }
  const word = TRAILING_WORD_SCALE.exec(body);
  if (word && ARABIC.test((word[1] as string).trim())) {
    const scale = englishScale(word[2] as string);
    if (scale !== undefined) return { value: Number((word[1] as string).replace(/,/g, '')) * scale, scale };
  }
  if (!HAN_BODY.test(body) || /^[\d.,]+$/.test(body)) return null;
  const value = parseHanNumeral(body.replace(/,/g, ''));
  return value === null ? null : { value };
}

/** A cell or question number as written, or null when `text` is not one number. */
export function parseNumberAsWritten(text: string): WrittenNumber | null {
  // A number as written is short; a long cell is text (and the patterns stay linear).
  if (text.length > MAX_LENGTH) return null;
  const parts = stripAround(text.normalize('NFKC').trim());
  if (!parts) return null;
  const read = readBody(parts.body);
  if (!read || !Number.isFinite(read.value)) return null;
  const magnitude = read.value * (parts.factor ?? 1);
  const value = Number((parts.negative ? -magnitude : magnitude).toPrecision(15));
  const out: WrittenNumber = { value: value === 0 ? 0 : value, negative: parts.negative };
  if (parts.unit !== undefined) out.unit = parts.unit;
  if (read.scale !== undefined) out.scale = read.scale;
  if (parts.approximate) out.approximate = true;
  return out;
}
