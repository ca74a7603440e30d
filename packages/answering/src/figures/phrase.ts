import type { FigureWords } from './words.js';

/** A scale as a word for the `value` field and English answers (score_numeric.py reads these words). */
const SCALE_WORDS: ReadonlyMap<number, string> = new Map([
  [1e3, 'thousand'],
  [1e4, 'ten-thousand'],
  [1e6, 'million'],
  [1e8, 'hundred-million'],
  [1e9, 'billion'],
  [1e12, 'trillion'],
]);
/** The same scales as Japanese and Chinese write them beside a figure (百万円, 亿元). */
const HAN_SCALES: ReadonlyMap<number, string> = new Map([
  [1e3, '千'],
  [1e4, '万'],
  [1e6, '百万'],
  [1e8, '億'],
  [1e9, '十億'],
  [1e12, '兆'],
]);
const HAN_UNITS: Readonly<Record<string, string>> = { JPY: '円', CNY: '元', USD: 'ドル', TWD: '元', HKD: '港元' };
const CURRENCY_SIGNS: Readonly<Record<string, string>> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥' };

const scaleWord = (scale: number): string => SCALE_WORDS.get(scale) ?? (scale === 1 ? '' : `×${scale}`);

/** A number as an answer writes it: grouped thousands, a true minus sign. */
export function written(n: number): string {
  const s = Math.abs(n).toLocaleString('en-US', { maximumFractionDigits: 6 });
  return n < 0 ? `−${s}` : s;
}

/**
 * A figure with its unit and scale, in the question's language: "$1,577 million", "16.5%",
 * "16,968百万円", "3.2亿元". `text` is the number as it should read (written by the document or computed).
 */
export function withUnit(text: string, words: FigureWords, figure: { scale: number; unit?: string; percent: boolean }): string {
  if (figure.percent) return `${text}%`;
  const { scale, unit } = figure;
  if (words.lang === 'en') {
    const sign = unit ? CURRENCY_SIGNS[unit] : undefined;
    const scaled = scale === 1 ? text : `${text} ${scaleWord(scale)}`;
    if (sign) return text.startsWith('−') || text.startsWith('-') ? `−${sign}${scaled.slice(1)}` : `${sign}${scaled}`;
    return unit && unit !== '%' ? `${scaled} ${unit}` : scaled;
  }
  const han = scale === 1 ? '' : (HAN_SCALES.get(scale) ?? `×${scale}`);
  const zhScale = words.lang === 'ja' ? han : han.replace('億', '亿');
  return `${text}${zhScale}${unit ? (HAN_UNITS[unit] ?? unit) : ''}`;
}

/** Fills a line's {slots}. */
export function fill(line: string, slots: Record<string, string>): string {
  return line.replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? '');
}

/** An answer line: the figure first, then what it is (and how it was computed), then the citation marks. */
export function figureLine(
  words: FigureWords,
  figure: string,
  what: string,
  expression: string | undefined,
  marks: string,
): string {
  const calc = expression ? ` = ${expression}` : '';
  return words.lang === 'en' ? `${figure}${calc} — ${what} ${marks}` : `${figure}${calc}（${what}）${marks}`;
}

/** A figure's value as an answer carries it: the number, its scale as a word ("million", "percent") and its unit. */
export function figureValue(
  number: number,
  figure: { scale: number; unit?: string | undefined; percent: boolean },
): {
  number: number;
  scale?: string;
  unit?: string;
} {
  if (figure.percent) return { number, scale: 'percent', unit: '%' };
  return {
    number,
    ...(figure.scale !== 1 ? { scale: scaleWord(figure.scale) } : {}),
    ...(figure.unit ? { unit: figure.unit } : {}),
  };
}

/** The operands of a calculation, numbered as they are cited. */
export function operandsOf(
  cells: readonly { amount: { written: string; number: number }; label: string; period: string }[],
): { n: number; value: string; number: number; label: string; period: string }[] {
  return cells.map((c, i) => ({ n: i + 1, value: c.amount.written, number: c.amount.number, label: c.label, period: c.period }));
}
