import { normalizeKeepingPositions, sourceSpan } from './nfkc-positions.js';
import { findPeriods } from './periods.js';
import { parseNumberAsWritten, type WrittenNumber } from './written-numbers.js';

/**
 * Numbers as written inside running text (questions, sentences): "more than $1.5 billion",
 * 「営業利益が1,000百万円以上」, 「人口超过1000万」, 「三百平方公里」, 「△5.2%」. Each is read by
 * parseNumberAsWritten and placed by a half-open codepoint span of the input as given.
 * Not numbers: periods (2022年, FY2022, 2023年3月期 — findPeriods has them), bare years, and Han
 * numeral characters inside words (三井, 第一三共, 一般): a Han numeral counts only with a unit or
 * scale after it, or when it is a written-out number of two or more characters with 十/百/千/万.
 */
export interface NumberMention extends WrittenNumber {
  span: [number, number];
  text: string;
}

const HAN_DIGITS = '〇零一二两兩三四五六七八九';
const HAN_UNITS = '十百千万萬億亿兆拾佰仟';
const APPROX = '(?:(?:約|约|大約|大约|およそ|about|approximately|approx\\.?|around|roughly|nearly)\\s*|[~〜≈])?';
const CURRENCY = '(?:(?:US|HK|NT|A|C|S)?\\$|RMB|USD|EUR|GBP|JPY|CNY|€|£|¥)?\\s*';
const ARABIC = `\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?`;
const HAN = `[${HAN_DIGITS}${HAN_UNITS}]+`;
const SCALE = `(?:[${HAN_UNITS}]+|\\s*(?:thousand|million|billion|trillion|bn|mn)\\b)?`;
const UNIT =
  '(?:\\s*(?:%|percent|dollars?|yen|yuan|shares|円|元|人民币|人民幣|美元|港元|ドル|人|名|件|社|株|個|个|台|家|平方公里|平方キロメートル|平方米|km2|m2)|[割成])?';
const MENTION = new RegExp(
  `(?<![A-Za-z0-9.,])${APPROX}[-−–△▲+]?${CURRENCY}(?:(${ARABIC})(?:[${HAN_UNITS}\\d,.]*)?|(${HAN}))${SCALE}${UNIT}`,
  'giu',
);
const DATE_PART = /^[年月日時分秒号號期]$/u;
/** Units of measure written right after the digits (110kV, 63mm, 380kg): the number stays an amount. */
const MEASURE = /^(?:mm|cm|m|km|kg|g|mg|t|kV|V|kW|W|MW|GW|kWh|MWh|A|mA|Hz|kHz|MHz|GHz|L|ml|mL|ms|s|h|min|rpm|°C|°F|µm)$/u;
const HAN_ONLY = new RegExp(`^[${HAN_DIGITS}${HAN_UNITS}]+$`, 'u');
const POSITIONAL = new RegExp(`[${HAN_UNITS}]`, 'u');

/** A Han-only numeral with nothing after it: a number only when written out (二十, 三百二十), not a lone character. */
function hanNumberStandsAlone(text: string): boolean {
  return Array.from(text).length >= 2 && POSITIONAL.test(text);
}

function isBareYear(n: WrittenNumber, text: string): boolean {
  return n.unit === undefined && n.scale === undefined && /^(?:19|20)\d{2}$/.test(text);
}

/**
 * Whether a match is an amount and not part of something else: 12月 / 十二月 / 3期 (a date or
 * term), 1株当たり (a basis), F-117A / 米-26 / 10A-5 / 2S3 (a model code: a hyphen after a
 * letter is no minus; letters after the digits must be a unit of measure and end the code), or a
 * lone scale character (万元 in 多少万元).
 */
function isAmount(text: string, at: number, raw: string): boolean {
  // A short window after the match: enough for a unit or 当たり, and linear on long texts.
  const after = text.slice(at + raw.length, at + raw.length + 12);
  if (DATE_PART.test(after.charAt(0)) || /^\s*(?:当たり|当り|あたり)/u.test(after)) return false;
  if (/^[-−–]/u.test(raw) && /[\p{L}\p{N}]$/u.test(text.slice(Math.max(0, at - 2), at))) return false;
  if (/[\p{L}\p{N}][-−–/]$/u.test(text.slice(Math.max(0, at - 2), at))) return false;
  const letters = /^[A-Za-z°µΩ]+/u.exec(after)?.[0];
  if (letters !== undefined && (!MEASURE.test(letters) || /^[-/][\p{L}\p{N}]/u.test(after.slice(letters.length)))) return false;
  return /[\d〇零一二两兩三四五六七八九十]/u.test(raw);
}

export function findNumbersAsWritten(input: string): NumberMention[] {
  const norm = normalizeKeepingPositions(input);
  const periods = findPeriods(input).filter((p) => !p.weak);
  const cps = Array.from(input);
  const out: NumberMention[] = [];
  MENTION.lastIndex = 0;
  for (let m = MENTION.exec(norm.text); m !== null; m = MENTION.exec(norm.text)) {
    const raw = m[0].trimEnd();
    if (raw.trim().length === 0) {
      MENTION.lastIndex = m.index + 1;
      continue;
    }
    if (!isAmount(norm.text, m.index, raw)) continue;
    const read = parseNumberAsWritten(raw);
    if (!read || isBareYear(read, raw.trim())) continue;
    if (HAN_ONLY.test(raw.trim()) && !hanNumberStandsAlone(raw.trim())) continue;
    const span = sourceSpan(norm, m.index, m.index + raw.length);
    if (periods.some((p) => p.span[0] < span[1] && span[0] < p.span[1])) continue;
    out.push({ ...read, span, text: cps.slice(span[0], span[1]).join('') });
  }
  return out;
}
