/**
 * Standard measures as formulas over the finance lexicon's line items (packages/analysis
 * finance-terms.ts: a group id names a line item in English, Japanese and Chinese). Data, not code:
 * a new measure is a line here. `avg(x)` is the average of x at the period's end and the end before;
 * `abs(x)` is x's size (capital expenditure and dividends paid are outflows a cash-flow statement
 * writes in brackets); a measure may read another (the cash conversion cycle reads DIO, DSO, DPO).
 */
export const MEASURE_FORMULAS: Readonly<Record<string, { formula: string; percent?: boolean }>> = {
  'gross-margin': { formula: 'gross-profit / revenue * 100', percent: true },
  'operating-margin': { formula: 'operating-income / revenue * 100', percent: true },
  'net-margin': { formula: 'net-income / revenue * 100', percent: true },
  ebitda: { formula: 'operating-income + depreciation-and-amortization' },
  'ebitda-margin': { formula: 'ebitda / revenue * 100', percent: true },
  'retention-ratio': { formula: '(net-income - abs(dividends-paid)) / net-income' },
  'effective-tax-rate': { formula: 'income-tax-expense / pretax-income * 100', percent: true },
  'payout-ratio': { formula: 'abs(dividends-paid) / net-income' },
  'inventory-turnover': { formula: 'cost-of-revenue / avg(inventories)' },
  'working-capital': { formula: 'current-assets - current-liabilities' },
  'current-ratio': { formula: 'current-assets / current-liabilities' },
  'quick-ratio': { formula: '(cash + accounts-receivable) / current-liabilities' },
  'debt-to-equity': { formula: 'total-debt / equity' },
  'equity-ratio': { formula: 'equity / total-assets * 100', percent: true },
  'debt-ratio': { formula: 'total-liabilities / total-assets * 100', percent: true },
  'free-cash-flow': { formula: 'operating-cash-flow - abs(capital-expenditure)' },
  'return-on-equity': { formula: 'net-income / avg(equity) * 100', percent: true },
  'return-on-assets': { formula: 'net-income / avg(total-assets) * 100', percent: true },
  'asset-turnover': { formula: 'revenue / avg(total-assets)' },
  'fixed-asset-turnover': { formula: 'revenue / avg(ppe)' },
  'days-sales-outstanding': { formula: '365 * avg(accounts-receivable) / revenue' },
  'days-inventory-outstanding': { formula: '365 * avg(inventories) / cost-of-revenue' },
  'days-payable-outstanding': { formula: '365 * avg(accounts-payable) / cost-of-revenue' },
  'cash-conversion-cycle': { formula: 'days-inventory-outstanding + days-sales-outstanding - days-payable-outstanding' },
  'interest-coverage': { formula: 'operating-income / interest-expense' },
};

/**
 * Line items a report may not state on a line of their own, read from the items it does state where
 * it does not: a manufacturer's income statement that shows no gross profit, a balance sheet that
 * splits its debt by maturity. A stated line is read first.
 */
export const ITEM_FALLBACKS: Readonly<Record<string, string>> = {
  'gross-profit': 'revenue - cost-of-revenue',
  'total-debt': 'short-term-debt + long-term-debt',
};

/** Measures that improve as they fall (fewer days to collect, less debt to equity). */
export const LOWER_IS_BETTER: ReadonlySet<string> = new Set([
  'days-sales-outstanding',
  'days-inventory-outstanding',
  'cash-conversion-cycle',
  'debt-to-equity',
  'debt-ratio',
]);

/**
 * Line items a cash-flow statement writes as outflows, in brackets ("Purchases of property, plant and
 * equipment (1,577)"): a formula reads their size (a question's "cash from operations - capex").
 */
export const OUTFLOWS: ReadonlySet<string> = new Set(['capital-expenditure', 'dividends-paid', 'share-repurchases']);

/**
 * A formula read: a number, a line item (at the period's end; averaged with the end before, `avg`;
 * or its change since the end before, `chg`), or an operation.
 */
export type Formula =
  | { kind: 'number'; value: number }
  | { kind: 'item'; id: string; avg: boolean; abs: boolean; chg?: boolean }
  | { kind: 'op'; op: '+' | '-' | '*' | '/'; left: Formula; right: Formula };

const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?)|(avg|abs|chg)\(\s*([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\s*\)|([a-z][a-z0-9]*(?:-[a-z0-9]+)*)|([-+*/()]))/gy;

/** Reads a formula of MEASURE_FORMULAS (numbers, group ids, avg(), abs(), + − × ÷ and brackets). Throws on anything else. */
export function parseFormula(text: string): Formula {
  const tokens: string[][] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    const m = TOKEN.exec(text);
    if (!m) break;
    tokens.push([...m].slice(1).map((x) => x ?? ''));
    at = TOKEN.lastIndex;
  }
  if (text.slice(at).trim() !== '') throw new Error(`Formula not understood at "${text.slice(at)}"`);
  let i = 0;
  const peek = (): string | undefined => tokens[i]?.[4] || undefined;
  const factor = (): Formula => {
    const t = tokens[i++];
    if (!t) throw new Error(`Formula ends early: "${text}"`);
    const [num, fn, arg, id, sym] = t;
    if (num) return { kind: 'number', value: Number(num) };
    if (fn && arg) return { kind: 'item', id: arg, avg: fn === 'avg', abs: fn === 'abs', ...(fn === 'chg' ? { chg: true } : {}) };
    if (id) return { kind: 'item', id, avg: false, abs: false };
    if (sym === '(') {
      const inner = sum();
      if (tokens[i++]?.[4] !== ')') throw new Error(`Unclosed bracket in "${text}"`);
      return inner;
    }
    throw new Error(`Unexpected "${sym}" in "${text}"`);
  };
  const product = (): Formula => {
    let left = factor();
    while (peek() === '*' || peek() === '/') {
      const op = tokens[i++]?.[4] as '*' | '/';
      left = { kind: 'op', op, left, right: factor() };
    }
    return left;
  };
  const sum = (): Formula => {
    let left = product();
    while (peek() === '+' || peek() === '-') {
      const op = tokens[i++]?.[4] as '+' | '-';
      left = { kind: 'op', op, left, right: product() };
    }
    return left;
  };
  const out = sum();
  if (i !== tokens.length) throw new Error(`Formula has more after its end: "${text}"`);
  return out;
}

/** The line items a measure reads, its nested measures' included, each once. */
export function measureItems(id: string, seen = new Set<string>()): { id: string; avg: boolean; abs: boolean }[] {
  // a measure of the lexicon by its id, or a formula a question gives
  const formula = MEASURE_FORMULAS[id]?.formula ?? (/[\s()]/u.test(id) ? id : undefined);
  if (!formula || seen.has(id)) return [];
  seen.add(id);
  const out: { id: string; avg: boolean; abs: boolean }[] = [];
  const walk = (x: Formula): void => {
    if (x.kind === 'op') {
      walk(x.left);
      walk(x.right);
    } else if (x.kind === 'item') {
      // a change reads the end before, as an average does
      const before = x.avg || x.chg === true;
      if (MEASURE_FORMULAS[x.id] && !before) out.push(...measureItems(x.id, seen));
      else if (!out.some((o) => o.id === x.id && o.avg === before)) out.push({ id: x.id, avg: before, abs: x.abs });
      // the items a line item is read from where the report states no line of it
      const fallback = ITEM_FALLBACKS[x.id];
      if (fallback && !before && !seen.has(x.id)) {
        seen.add(x.id);
        walk(parseFormula(fallback));
      }
    }
  };
  walk(parseFormula(formula));
  return out;
}

/**
 * A formula whose figure is an amount in its line items' unit and scale (EBITDA, free cash flow,
 * working capital): sums and differences of items only. A division, a product or a nested ratio
 * (the cash conversion cycle's days) makes it a ratio, in no scale.
 */
export function amountFormula(formula: string): boolean {
  const amount = (f: Formula): boolean => {
    if (f.kind === 'number') return false;
    if (f.kind === 'item') {
      const nested = MEASURE_FORMULAS[f.id];
      return !nested || (!nested.percent && amountFormula(nested.formula));
    }
    return (f.op === '+' || f.op === '-') && amount(f.left) && amount(f.right);
  };
  return amount(parseFormula(formula));
}
