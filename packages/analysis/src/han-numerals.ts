/**
 * Numbers written with Han characters (漢数字 / 中文数字), alone or mixed with Arabic digits:
 * 三百二十 → 320, 二千二十二 → 2022, 一万二千 → 12000, 两百 → 200, 二〇二二 → 2022 (digit by digit),
 * 1.2万 → 12000, 3億5000万 → 350000000. Traditional and formal forms (萬, 億, 兩, 拾, 佰, 仟) count too.
 */
const DIGITS: Readonly<Record<string, number>> = {
  〇: 0,
  零: 0,
  一: 1,
  二: 2,
  两: 2,
  兩: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const SMALL_UNITS: Readonly<Record<string, number>> = { 十: 10, 拾: 10, 百: 100, 佰: 100, 千: 1000, 仟: 1000 };
const BIG_UNITS: Readonly<Record<string, number>> = { 万: 1e4, 萬: 1e4, 億: 1e8, 亿: 1e8, 兆: 1e12 };

export function hanDigit(ch: string): number | undefined {
  return DIGITS[ch];
}

const TOKEN = /(\d+(?:\.\d+)?)|(.)/gsu;

/** Value of a Han (or mixed Han/Arabic) numeral, or null when it is not one. Input is NFKC, no separators. */
export function parseHanNumeral(text: string): number | null {
  if (text.length === 0) return null;
  const chars = Array.from(text);
  if (chars.length >= 2 && chars.every((c) => DIGITS[c] !== undefined && c !== '两' && c !== '兩')) {
    return Number(chars.map((c) => DIGITS[c]).join(''));
  }
  let total = 0;
  let section = 0;
  let num: number | undefined;
  let lastBig = Number.POSITIVE_INFINITY;
  for (const m of text.matchAll(TOKEN)) {
    if (m[1] !== undefined) {
      if (num !== undefined) return null;
      num = Number(m[1]);
      continue;
    }
    const ch = m[2] as string;
    const digit = DIGITS[ch];
    const small = SMALL_UNITS[ch];
    const big = BIG_UNITS[ch];
    if (digit !== undefined) {
      if (num !== undefined && digit !== 0) return null;
      num = digit === 0 ? undefined : digit;
    } else if (small !== undefined) {
      section += (num ?? 1) * small;
      num = undefined;
    } else if (big !== undefined) {
      if (big >= lastBig) return null;
      lastBig = big;
      total += (section + (num ?? (section === 0 ? 1 : 0))) * big;
      section = 0;
      num = undefined;
    } else return null;
  }
  return total + section + (num ?? 0);
}
