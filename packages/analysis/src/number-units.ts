/**
 * Units and scale words of numbers as written in tables and questions (en/ja/zh), on NFKC text
 * (so ％ → %, ￥ → ¥, ㎡ → m2, （ → ( already). Units are canonical: ISO currency codes where the
 * symbol is unambiguous, '¥' where it may be yen or yuan, '%', 'km²', 'm²', and count words as
 * written (人, 件, 社, 株, 個, 个, 台, 家, 名 → 人).
 */
const UNIT_WORDS: ReadonlyArray<readonly [string, string]> = [
  ['US$', 'USD'],
  ['HK$', 'HKD'],
  ['NT$', 'TWD'],
  ['A$', 'AUD'],
  ['C$', 'CAD'],
  ['S$', 'SGD'],
  ['USD', 'USD'],
  ['HKD', 'HKD'],
  ['TWD', 'TWD'],
  ['EUR', 'EUR'],
  ['GBP', 'GBP'],
  ['JPY', 'JPY'],
  ['CNY', 'CNY'],
  ['RMB', 'CNY'],
  ['$', 'USD'],
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['¥', '¥'],
  ['人民币', 'CNY'],
  ['人民幣', 'CNY'],
  ['新台币', 'TWD'],
  ['新台幣', 'TWD'],
  ['美元', 'USD'],
  ['港元', 'HKD'],
  ['港币', 'HKD'],
  ['港幣', 'HKD'],
  ['ドル', 'USD'],
  ['ユーロ', 'EUR'],
  ['円', 'JPY'],
  ['元', 'CNY'],
  ['%', '%'],
  ['percent', '%'],
  ['パーセント', '%'],
  ['百分比', '%'],
  ['平方公里', 'km²'],
  ['平方千米', 'km²'],
  ['平方キロメートル', 'km²'],
  ['km2', 'km²'],
  ['平方米', 'm²'],
  ['平方メートル', 'm²'],
  ['m2', 'm²'],
  ['人', '人'],
  ['名', '人'],
  ['件', '件'],
  ['社', '社'],
  ['株', '株'],
  ['個', '個'],
  ['个', '个'],
  ['台', '台'],
  ['家', '家'],
  ['dollars', 'USD'],
  ['dollar', 'USD'],
  ['yen', 'JPY'],
  ['yuan', 'CNY'],
  ['shares', 'shares'],
  ['employees', '人'],
  ['people', '人'],
];

/** Units sorted longest first, so 人民币 wins over 元 and US$ over $. */
const UNITS_BY_LENGTH = [...UNIT_WORDS].sort((a, b) => b[0].length - a[0].length);

/** The canonical unit that `text` starts (or, with `atEnd`, ends) with, and its length. */
export function unitAt(text: string, atEnd: boolean): { unit: string; length: number } | null {
  const lower = text.toLowerCase();
  for (const [word, unit] of UNITS_BY_LENGTH) {
    const w = word.toLowerCase();
    if (atEnd ? lower.endsWith(w) : lower.startsWith(w)) {
      // A Latin word must stand alone: "m2" is not the end of "fm2", "$" needs nothing.
      const before = atEnd ? lower.charAt(lower.length - w.length - 1) : '';
      if (/^[a-z]/.test(w) && /[a-z]/.test(before)) continue;
      return { unit, length: word.length };
    }
  }
  return null;
}

/** English scale words. */
const SCALE_WORDS: Readonly<Record<string, number>> = {
  thousand: 1e3,
  thousands: 1e3,
  k: 1e3,
  million: 1e6,
  millions: 1e6,
  m: 1e6,
  mn: 1e6,
  mm: 1e6,
  mio: 1e6,
  billion: 1e9,
  billions: 1e9,
  bn: 1e9,
  b: 1e9,
  trillion: 1e12,
  trillions: 1e12,
  tn: 1e12,
};

export function englishScale(word: string): number | undefined {
  return SCALE_WORDS[word.toLowerCase()];
}

/** Han scale characters: 百万 = 100 × 10⁴, 千万, 十億 … multiply. */
const HAN_SCALE: Readonly<Record<string, number>> = { 十: 10, 百: 100, 千: 1e3, 万: 1e4, 萬: 1e4, 億: 1e8, 亿: 1e8, 兆: 1e12 };

export const HAN_SCALE_CHARS = '十百千万萬億亿兆';

/** Product of a run of Han scale characters (百万 → 10⁶), or undefined for an empty or foreign run. */
export function hanScale(run: string): number | undefined {
  if (run.length === 0) return undefined;
  let scale = 1;
  for (const ch of run) {
    const f = HAN_SCALE[ch];
    if (f === undefined) return undefined;
    scale *= f;
  }
  return scale;
}
