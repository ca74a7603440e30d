import { englishScale, hanDigit, hanScale } from '@pinpoint/analysis';
import type { FigureValue } from '@pinpoint/core';
import { figureValue, withUnit, written } from './phrase.js';
import { rounded } from './round.js';
import type { FigureWords } from './words.js';

/** The form a question asks its figure in: a scale ("in USD millions", 「億円で」, 「以亿元」) and decimals ("round to two decimal places"). */
export interface AskedForm {
  scale?: number;
  decimals?: number;
  /** The currency the question asks the figure in ("in USD millions": USD, 「億円で」: JPY, 「以亿元」: CNY). */
  currency?: string;
}

/** English words for a rounding's places ("two decimal places"); digits and Han numerals are read as they are. */
const PLACE_WORDS: Readonly<Record<string, number>> = { zero: 0, one: 1, two: 2, three: 3, four: 4 };

type Reader = readonly [RegExp, (m: RegExpExecArray) => number | undefined];

/** The scale a matched scale word or Han scale run names ("million", 百万, 亿). */
const scaleOf = (word: string | undefined): number | undefined =>
  word === undefined ? undefined : (englishScale(word) ?? hanScale(word));

/** Each language's ways of asking a scale and a rounding: the pattern and what its groups say. */
const SCALE_ASKED: readonly Reader[] = [
  [
    /\b(?:in|into|as|of|answer\s+in|units\s+of|expressed\s+in|terms\s+of)\s+(?:usd\s+|us\$\s*|\$\s*|dollars?\s+)?(thousand|million|billion)s?\b/iu,
    (m) => scaleOf(m[1]),
  ],
  [/\b(?:usd|us\$|\$)\s*(thousand|million|billion)s?\b/iu, (m) => scaleOf(m[1])],
  [/(千|百万|億|兆)円(?:単位)?で/u, (m) => scaleOf(m[1])],
  [/(?:以|按|用|单位[:：]?|單位[:：]?)\s*(?:人民币|人民幣)?(千|万|萬|百万|亿|億)元/u, (m) => scaleOf(m[1])],
];
/** Each language's ways of asking a currency, with the currency asked. */
const CURRENCY_ASKED: readonly (readonly [RegExp, string])[] = [
  [/\b(?:in|into|as|answer\s+in|units\s+of|expressed\s+in|terms\s+of)\s+(?:usd|us\$|u\.?s\.?\s+dollars?)(?![\w$])/iu, 'USD'],
  [/\b(?:usd|us\$)\s*(?:thousand|million|billion)s?\b/iu, 'USD'],
  [/(?:千|百万|億|兆)?円(?:単位)?で/u, 'JPY'],
  // 元 alone is a scale's unit, not a currency (yuan, NT dollars, HK dollars all write it)
  [/(?:以|按|用|单位[:：]?|單位[:：]?)\s*(?:人民币|人民幣)/u, 'CNY'],
];

/** A currency code as a table declares its unit ("USD", "JPY"), not a unit of count ("人", "%"). */
const CURRENCY_CODE = /^[A-Z]{3}$/u;

/** The currency a figure is stated in when the question asks it in another ("in USD millions" of a table in JPY): no rate converts it. */
export function otherCurrency(asked: AskedForm, unit: string | undefined): string | undefined {
  return asked.currency !== undefined && unit !== undefined && CURRENCY_CODE.test(unit) && unit !== asked.currency
    ? unit
    : undefined;
}

const DECIMALS_ASKED: readonly Reader[] = [
  [/\bround(?:ed|ing)?\b[^.?]*?\bto\s+(\d|zero|one|two|three|four)\s+decimal/iu, (m) => placesOf(m[1])],
  [/\b(?:to|rounded\s+to)\s+the\s+nearest\s+(?:whole\s+number|integer|whole\s+percent)/iu, () => 0],
  [/小数(?:点)?第?\s*(\d|一|二|三)\s*位/u, (m) => placesOf(m[1])],
  [/保留\s*(\d|一|二|两|兩|三)\s*位小[数數]/u, (m) => placesOf(m[1])],
];

function placesOf(word: string | undefined): number | undefined {
  if (word === undefined) return undefined;
  return /^\d$/.test(word) ? Number(word) : (PLACE_WORDS[word.toLowerCase()] ?? hanDigit(word));
}

/** What the first of the readers that matches says of the question. */
function firstRead(readers: readonly Reader[], q: string): number | undefined {
  for (const [re, read] of readers) {
    const m = re.exec(q);
    const value = m ? read(m) : undefined;
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The scale and rounding a question asks its figure in; empty when it asks neither. */
export function askedForm(question: string): AskedForm {
  const q = question.normalize('NFKC');
  const scale = firstRead(SCALE_ASKED, q);
  const decimals = firstRead(DECIMALS_ASKED, q);
  const currency = CURRENCY_ASKED.find(([re]) => re.test(q))?.[1];
  return {
    ...(scale !== undefined ? { scale } : {}),
    ...(decimals !== undefined ? { decimals } : {}),
    ...(currency !== undefined ? { currency } : {}),
  };
}

/** A figure as an answer states it: its text with unit and scale, and its value. */
export interface StatedFigure {
  text: string;
  value: FigureValue;
}

/**
 * A figure stated in the form the question asks: in the table's own scale, and — where the question
 * asks another scale — converted, the conversion shown ("$5,466,312 thousand = $5,466.31 million");
 * rounded as asked (two decimals where a conversion is not asked to round otherwise).
 */
export function stateFigure(
  number: number,
  form: { scale: number; unit?: string | undefined; percent: boolean },
  asked: AskedForm,
  words: FigureWords,
  /** The figure's digits as the document writes them ("△ 23,728"), for a cell stated as it is. */
  asWritten?: string,
): StatedFigure {
  const unit = form.unit ? { unit: form.unit } : {};
  // the figure as given (a cell's as written, a computation's as rounded by its caller), else as asked
  const shown = asked.decimals === undefined ? number : rounded(number, asked.decimals);
  const digits = asWritten !== undefined && asked.decimals === undefined ? asWritten : written(shown);
  const own = withUnit(digits, words, { scale: form.scale, percent: form.percent, ...unit });
  const convert = asked.scale !== undefined && !form.percent && asked.scale !== form.scale;
  if (!convert) return { text: own, value: figureValue(shown, { ...form, ...unit }) };
  const target = asked.scale as number;
  const converted = rounded((number * form.scale) / target, asked.decimals ?? 2);
  const as = withUnit(written(converted), words, { scale: target, percent: false, ...unit });
  return {
    text: `${withUnit(written(number), words, { scale: form.scale, percent: false, ...unit })} = ${as}`,
    value: figureValue(converted, { scale: target, percent: false, ...unit }),
  };
}
