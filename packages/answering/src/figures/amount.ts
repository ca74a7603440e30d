/**
 * A figure as a report writes it in a cell: "1,577", "$ (1,577)", "(71)", "△ 300,299", "▲1.2", "−5",
 * "12.5%", "¥ 3,000". Accounting brackets and the Japanese triangles are minus signs. A cell that
 * holds words beside its number ("3-5", "2019", "Note 4") is no amount.
 */
export interface Amount {
  /** The signed number. */
  number: number;
  /** The figure as the document writes it (its own digits, brackets and signs, trimmed). */
  written: string;
  /** The cell says "%". */
  percent: boolean;
  /** Digits after the decimal point as written. */
  decimals: number;
  /** The currency the cell writes beside its figure ("$ (1,577)" → USD). */
  currency?: string;
  /** A dash read as zero (nilOf). */
  nil?: true;
}

const CURRENCY_CODES: Readonly<Record<string, string>> = {
  $: 'USD',
  US$: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '￥': 'JPY',
  円: 'JPY',
  元: 'CNY',
  HK$: 'HKD',
  NT$: 'TWD',
  A$: 'AUD',
  C$: 'CAD',
};

const CURRENCY = String.raw`(?:US\$|HK\$|NT\$|A\$|C\$|\$|€|£|¥|￥|USD|EUR|GBP|JPY|RMB|CNY)`;
const FIGURE = new RegExp(
  String.raw`^(?<pre>${CURRENCY}?\s*)(?<open>\(\s*)?(?<cur>${CURRENCY}\s*)?(?<sign>[-+\u2212\u2012\u2013△▲]\s*)?` +
    String.raw`(?<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s*(?<pct>%)?\s*(?<close>\))?\s*(?<post>%|${CURRENCY}|円|元)?$`,
  'u',
);

export function amountOf(text: string): Amount | null {
  // the same cells are read by every stage (periods, totals, the operands): each text once
  const known = read.get(text);
  if (known !== undefined) return known;
  const amount = readAmount(text);
  if (read.size >= READ) read.clear();
  read.set(text, amount);
  return amount;
}
const READ = 8192;
const read = new Map<string, Amount | null>();

function readAmount(text: string): Amount | null {
  const t = text
    .normalize('NFKC')
    .replace(/\u00a0/g, ' ')
    .trim();
  if (t === '') return null;
  const m = FIGURE.exec(t);
  const g = m?.groups;
  if (!g?.digits) return null;
  // "(1,577)" is a negative; "(1,577" or "1,577)" half a bracket is no figure
  if (Boolean(g.open) !== Boolean(g.close)) return null;
  const value = Number(g.digits.replace(/,/g, ''));
  if (!Number.isFinite(value)) return null;
  const negative = Boolean(g.open) || (g.sign !== undefined && !g.sign.startsWith('+'));
  const decimals = g.digits.includes('.') ? (g.digits.split('.')[1]?.length ?? 0) : 0;
  const sign = [g.pre, g.cur, g.post].map((x) => x?.trim() ?? '').find((x) => x !== '' && x !== '%');
  const currency = sign ? (CURRENCY_CODES[sign] ?? sign.toUpperCase()) : undefined;
  return {
    number: negative ? -value : value,
    written: text.trim(),
    percent: g.pct !== undefined || g.post === '%',
    decimals,
    ...(currency ? { currency } : {}),
  };
}

/** A cell that says nil: a dash alone, beside a currency or percent sign at most ("—", "$ -", "–%"). */
const NIL = new RegExp(String.raw`^${CURRENCY}?\s*[-\u2012\u2013\u2014\u2212]\s*%?$`, 'u');

/** How a nil operand is written in an expression. */
const NIL_WRITTEN = '0';

/** A nil cell ("—") as the amount zero, written "0" in an expression (the citation quotes the dash); null for any other text. */
export function nilOf(text: string): Amount | null {
  const t = text
    .normalize('NFKC')
    .replace(/\u00a0/g, ' ')
    .trim();
  return NIL.test(t) ? { number: 0, written: NIL_WRITTEN, percent: t.endsWith('%'), decimals: 0, nil: true } : null;
}
