import { englishScale, HAN_SCALE_CHARS, hanScale, unitAt } from './number-units.js';

/**
 * The scale and unit a table header declares for its column: 売上高（百万円） → ×10⁶ JPY,
 * 人口（万人） → ×10⁴ 人, 营业收入（亿元） → ×10⁸ CNY, 面积（平方公里） → km², Revenue (in millions)
 * → ×10⁶, $ in thousands → ×10³ USD, Margin (%) → %. `label` is the header without that part.
 */
export interface HeaderScale {
  /** Multiplier to apply to the column's numbers (1 when the header declares none). */
  scale: number;
  unit?: string;
  /** The header without its unit phrase (売上高（百万円） → 売上高). */
  label: string;
}

const BRACKETS = /[([【［〔]([^()[\]【】［］〔〕]*)[)\]】］〕]/gu;
const UNIT_LABEL = /(?:单位|單位|単位|unit)\s*[:：]?\s*([^,，;；)）\]】]*)/iu;
const HAN_PHRASE = new RegExp(`^([${HAN_SCALE_CHARS}]*)(.*)$`, 'u');
const IN_SCALE = /(?:^|\s)(?:in\s+|amounts?\s+in\s+)?(thousands|millions|billions|trillions)(?:\s+of\s+([^\s,;]+))?/i;

/** Scale and unit of one phrase ("百万円", "in millions of dollars", "$ in thousands", "%", "USD m"). */
function readPhrase(phrase: string): { scale: number; unit?: string } | null {
  const p = phrase.trim().replace(/^(?:单位|單位|単位|unit)\s*[:：]?\s*/iu, '');
  if (p.length === 0) return null;
  const han = readHanPhrase(p);
  if (han) return han;
  let unit: string | undefined;
  let scale: number | undefined;
  for (const word of p.split(/[\s,;/]+/)) {
    const u = unitAt(word, false);
    if (u && u.length === word.length) unit ??= u.unit;
    else if (u && englishScale(word.slice(u.length)) !== undefined)
      [unit, scale] = [unit ?? u.unit, englishScale(word.slice(u.length))];
    else if (englishScale(word) !== undefined && !/^(?:in|of)$/i.test(word)) scale ??= englishScale(word);
    else if (!/^(?:in|of|amounts?|except|per|share|data|and|the|dollars?|yen|usd)$/i.test(word)) return null;
  }
  if (/\bdollars?\b/i.test(p)) unit ??= 'USD';
  if (/\byen\b/i.test(p)) unit ??= 'JPY';
  if (unit === undefined && scale === undefined) return null;
  return unit === undefined ? { scale: scale ?? 1 } : { scale: scale ?? 1, unit };
}

/** "百万円", "万人", "人民币亿元", "千元", "平方公里", "百万" — a scale run then a unit (either may be missing). */
function readHanPhrase(p: string): { scale: number; unit?: string } | null {
  const currency = unitAt(p, false);
  const rest = currency && /^(?:人民币|人民幣|新台币|新台幣)/u.test(p) ? p.slice(currency.length) : p;
  const m = HAN_PHRASE.exec(rest);
  const scale = hanScale(m?.[1] ?? '') ?? 1;
  const tail = (m?.[2] ?? '').trim();
  if (tail.length === 0) return scale === 1 ? null : { scale };
  const unit = unitAt(tail, false);
  if (!unit || unit.length !== tail.length) return null;
  return { scale, unit: currency && rest !== p && unit.unit === 'CNY' ? 'CNY' : unit.unit };
}

/** Phrases with other words around the scale: "in millions, except per share data". */
function readLoose(p: string): { scale: number; unit?: string } | null {
  const m = IN_SCALE.exec(p);
  if (!m) return null;
  const scale = englishScale(m[1] as string) ?? 1;
  const before = p.slice(0, m.index).trim();
  const lead = unitAt(before.split(/\s+/).pop() ?? '', false);
  const unit = lead?.unit ?? (m[2] && /dollar/i.test(m[2]) ? 'USD' : m[2] && /yen/i.test(m[2]) ? 'JPY' : undefined);
  return unit === undefined ? { scale } : { scale, unit };
}

export function headerScale(header: string): HeaderScale {
  const text = header.normalize('NFKC');
  for (const m of text.matchAll(BRACKETS)) {
    const read = readPhrase(m[1] as string) ?? readLoose(m[1] as string);
    if (read) return { ...read, label: tidy(text.slice(0, m.index) + text.slice(m.index + m[0].length)) };
  }
  const labelled = UNIT_LABEL.exec(text);
  const read = labelled ? (readPhrase(labelled[1] as string) ?? readLoose(labelled[1] as string)) : null;
  if (labelled && read) return { ...read, label: tidy(text.slice(0, labelled.index)) };
  // A whole header that is only a unit ("百万円", "%", "$ in thousands"); an English word alone
  // ("Shares", "Employees") stays a label.
  const phrase = readPhrase(text);
  if (phrase && (phrase.scale !== 1 || !/[A-Za-z]/.test(text))) return { ...phrase, label: '' };
  const loose = IN_SCALE.exec(text);
  const scaled = loose ? readLoose(text) : null;
  if (loose && scaled) return { ...scaled, label: tidy(text.slice(0, loose.index)) };
  return { scale: 1, label: tidy(text) };
}

function tidy(s: string): string {
  return s
    .replace(/\s+/g, ' ')
    .replace(/[\s,:：、]+$/u, '')
    .trim();
}
