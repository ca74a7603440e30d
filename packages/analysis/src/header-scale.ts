import { englishScale, HAN_SCALE_CHARS, hanScale, unitAt } from './number-units.js';

/**
 * The scale and unit a table header declares for its column: 売上高（百万円） → ×10⁶ JPY,
 * 人口（万人） → ×10⁴ 人, 营业收入（亿元） → ×10⁸ CNY, 面积（平方公里） → km², Revenue (in millions)
 * → ×10⁶, $ in thousands → ×10³ USD, (in thousand NT dollars) → ×10³ TWD, Margin (%) → %.
 * `label` is the header without that part. Single letters (m, mm, k, b) are a scale only beside a
 * currency ($M, €m, USD k): alone they are metres, millimetres …
 */
export interface HeaderScale {
  /** Multiplier to apply to the column's numbers (1 when the header declares none). */
  scale: number;
  unit?: string;
  /** The header without its unit phrase (売上高（百万円） → 売上高). */
  label: string;
}

interface Declared {
  scale: number;
  unit?: string;
}

const BRACKETS = /[([【［〔]([^()[\]【】［］〔〕]*)[)\]】］〕]/gu;
const UNIT_LABEL = /(?:单位|單位|単位|unit)\s*[:：]\s*([^,，;；)）\]】]*)/iu;
const HAN_PHRASE = new RegExp(`^([${HAN_SCALE_CHARS}]*)(.*)$`, 'u');
const IN_SCALE = /(?:^|\s)(?:amounts?\s+)?in\s+(?:\S+\s+)?(?:thousands?|millions?|billions?|trillions?)\b.*$/iu;
const SCALE_WORD = /\b(thousands?|millions?|billions?|trillions?|bn|mn|mio|tn)\b/i;
const SCALE_BESIDE_CURRENCY = /(?:[$€£¥]|\b(?:usd|eur|gbp|jpy|rmb|cny|hkd|twd))\s*(k|m|mm|b)\b|\b(k|m|mm|b)\s*[$€£¥]/i;
/**
 * A currency written with its scale inside a longer header: "52 weeks ended 30 Mar 2019 £m",
 * "US$’000", "RMB’Million", "All figures in USD ‘000, except …" ('000 is thousands).
 */
const CURRENCY_SCALE =
  /(?:^|[\s(/])((?:us|hk|nt|a|c|s)?\$|€|£|¥|usd|eur|gbp|rmb|cny|jpy|hkd|twd|aud|cad|chf|sgd)\s*[‘’'`]?\s*(000|k|m|mn|mm|millions?|bn|billions?|thousands?)(?![\p{L}\d])/iu;
/** A header that is a unit and nothing else: "%", "USD", "$m", "€ millions", "Percent". */
const UNIT_ONLY =
  /^[\s(]*(?:(?:us|hk|nt)?\$|€|£|¥|usd|eur|gbp|jpy|cny|rmb|hkd|twd|%|percent)?\s*(?:k|m|mm|mn|bn|b|thousands?|millions?|billions?)?[\s)]*$/iu;
const CURRENCIES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bnt\s*\$|\bnt\s+dollars?\b|\btwd\b|新台[币幣]/iu, 'TWD'],
  [/\bhk\s*\$|\bhk\s+dollars?\b|\bhkd\b|港[元币幣]/iu, 'HKD'],
  [/\$|\busd\b|\bdollars?\b|美元/iu, 'USD'],
  [/€|\beur\b|\beuros?\b/iu, 'EUR'],
  [/£|\bgbp\b|\bpounds?\b/iu, 'GBP'],
  [/\bjpy\b|\byen\b|円/iu, 'JPY'],
  [/\bcny\b|\brmb\b|\byuan\b|\brenminbi\b|人民[币幣]|元/iu, 'CNY'],
  [/¥/u, '¥'],
  [/%|\bper\s*cent\b|\bpercent(?:age)?\b/iu, '%'],
];

function currencyIn(phrase: string): string | undefined {
  return CURRENCIES.find(([re]) => re.test(phrase))?.[1];
}

/** Scale and unit of a Latin phrase ("in millions of dollars", "$ in thousands", "USD m", "%"). */
function readLatin(p: string): Declared | null {
  const word = SCALE_WORD.exec(p);
  const beside = word ? null : SCALE_BESIDE_CURRENCY.exec(p);
  const scaleWord = word?.[1] ?? beside?.[1] ?? beside?.[2];
  const scale = scaleWord === undefined ? undefined : englishScale(scaleWord);
  const unit = currencyIn(p);
  if (scale === undefined && unit === undefined) return null;
  return unit === undefined ? { scale: scale ?? 1 } : { scale: scale ?? 1, unit };
}

/** "百万円", "万人", "人民币亿元", "千元", "平方公里", "百万" — a scale run then a unit (either may be missing). */
function readHan(p: string): Declared | null {
  if (/^[\x00-\x7f]*$/.test(p)) return null;
  const rest = p.replace(/^(?:人民币|人民幣|新台币|新台幣)\s*/u, '');
  const m = HAN_PHRASE.exec(rest);
  const scale = hanScale(m?.[1] ?? '') ?? 1;
  const tail = (m?.[2] ?? '').trim();
  if (tail.length === 0) return scale === 1 ? null : { scale, ...(rest !== p ? { unit: currencyIn(p) as string } : {}) };
  const unit = unitAt(tail, false);
  if (!unit || unit.length !== tail.length) return null;
  return { scale, unit: unit.unit };
}

/** Scale and unit of the words inside brackets or after 単位：. */
function readPhrase(phrase: string): Declared | null {
  const p = phrase.trim().replace(/^(?:单位|單位|単位|unit)\s*[:：]?\s*/iu, '');
  if (p.length === 0) return null;
  // CJK words are read as a unit phrase or not at all: 元 inside 単元株式数 is no currency.
  return /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/u.test(p) ? readHan(p) : readLatin(p);
}

export function headerScale(header: string): HeaderScale {
  const text = header.normalize('NFKC');
  for (const m of text.matchAll(BRACKETS)) {
    const read = readPhrase(m[1] as string);
    if (read) return { ...read, label: tidy(text.slice(0, m.index) + text.slice(m.index + m[0].length)) };
  }
  const labelled = UNIT_LABEL.exec(text);
  const read = labelled ? readPhrase(labelled[1] as string) : null;
  if (labelled && read) return { ...read, label: tidy(text.slice(0, labelled.index)) };
  // A header that is only a unit ("百万円", "%", "$ in thousands", "USD m"); an English word alone
  // ("Shares", "Employees") stays a label.
  const han = readHan(text.trim());
  if (han) return { ...han, label: '' };
  const unitOnly = UNIT_ONLY.test(text) ? readLatin(text) : null;
  if (unitOnly) return { ...unitOnly, label: '' };
  if (/\S\s*%$/u.test(text)) return { scale: 1, unit: '%', label: tidy(text.replace(/%$/u, '')) };
  const tail = IN_SCALE.exec(text);
  const scaled = tail ? readLatin(tail[0]) : null;
  if (tail && scaled)
    return {
      ...(currencyIn(text) ? { unit: currencyIn(text) as string } : {}),
      ...scaled,
      label: tidy(text.slice(0, tail.index).replace(/[$€£¥]\s*$/u, '')),
    };
  const currency = CURRENCY_SCALE.exec(text);
  if (currency) {
    const word = (currency[2] as string).toLowerCase();
    const scale = word === '000' ? 1e3 : englishScale(word);
    const unit = currencyIn(currency[1] as string);
    if (scale !== undefined)
      return {
        scale,
        ...(unit ? { unit } : {}),
        label: tidy(text.slice(0, currency.index) + text.slice(currency.index + currency[0].length)),
      };
  }
  return { scale: 1, label: tidy(text) };
}

function tidy(s: string): string {
  return s
    .replace(/\s+/g, ' ')
    .replace(/[\s,:：、]+$/u, '')
    .trim();
}
