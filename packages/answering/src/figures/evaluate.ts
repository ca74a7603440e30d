import type { LocatedCell } from './locate.js';
import type { Formula } from './measures.js';
import { ITEM_FALLBACKS, MEASURE_FORMULAS, parseFormula } from './measures.js';

/** Finds a line item's cell for a year (the period ending in that year); undefined when the report shows none. */
export type CellFinder = (item: string, year: number) => LocatedCell | undefined;

/** A measure computed: its number, the expression over the cells as written, the cells in citation order. */
export interface Evaluated {
  number: number;
  expression: string;
  cells: LocatedCell[];
}

/** A measure that cannot be computed: the line item not found (and its year), or a division by zero. */
export interface NotEvaluated {
  missing: string;
  year?: number;
  divideByZero?: boolean;
}

class Missing extends Error {
  constructor(readonly detail: NotEvaluated) {
    super(detail.missing);
  }
}

const SYMBOL = { '+': '+', '-': '−', '*': '×', '/': '÷' } as const;
const PRECEDENCE = { '+': 1, '-': 1, '*': 2, '/': 2 } as const;

/**
 * Computes a measure of MEASURE_FORMULAS (or a line item itself) for the period ending in `year`,
 * each line item read by `find`. The expression shows each operand as the document writes it
 * ("12.41 = 5,218 ÷ ((402 + 439) ÷ 2)"); `cells` are the operands in the order they appear.
 */
export function evaluateMeasure(id: string, year: number, find: CellFinder): Evaluated | NotEvaluated {
  const cells: LocatedCell[] = [];
  const cellFor = (item: string, y: number): LocatedCell => {
    const c = find(item, y);
    if (!c) throw new Missing({ missing: item, year: y });
    if (!cells.includes(c)) cells.push(c);
    return c;
  };
  const run = (f: Formula): { n: number; text: string; prec: number } => {
    if (f.kind === 'number') return { n: f.value, text: String(f.value), prec: 3 };
    if (f.kind === 'item') {
      const nested = MEASURE_FORMULAS[f.id];
      if (nested && !f.avg) return run(parseFormula(nested.formula));
      // a line item the report states no line of, read from those it does (gross profit: revenue − cost of revenue)
      const fallback = ITEM_FALLBACKS[f.id];
      if (fallback && !f.avg && !f.chg && !find(f.id, year)) {
        try {
          const from = run(parseFormula(fallback));
          return { ...from, text: `(${from.text})`, prec: 3 };
        } catch (e) {
          if (e instanceof Missing && !e.detail.divideByZero) throw new Missing({ missing: f.id, year });
          throw e;
        }
      }
      const size = (c: LocatedCell): { n: number; text: string } =>
        f.abs
          ? { n: Math.abs(c.amount.number), text: c.amount.written.replace(/^\s*\((.*)\)\s*$/u, '$1') }
          : { n: c.amount.number, text: c.amount.written };
      const now = size(cellFor(f.id, year));
      if (!f.avg && !f.chg) return { ...now, prec: 3 };
      const before = size(cellFor(f.id, year - 1));
      if (f.chg) return { n: now.n - before.n, text: `(${now.text} − ${before.text})`, prec: 3 };
      return { n: (now.n + before.n) / 2, text: `((${now.text} + ${before.text}) ÷ 2)`, prec: 3 };
    }
    const l = run(f.left);
    const r = run(f.right);
    const p = PRECEDENCE[f.op];
    if (f.op === '/' && r.n === 0) throw new Missing({ missing: 'division by zero', divideByZero: true });
    const n = f.op === '+' ? l.n + r.n : f.op === '-' ? l.n - r.n : f.op === '*' ? l.n * r.n : l.n / r.n;
    const lt = l.prec < p ? `(${l.text})` : l.text;
    const rt = r.prec < p || (r.prec === p && (f.op === '-' || f.op === '/')) ? `(${r.text})` : r.text;
    return { n, text: `${lt} ${SYMBOL[f.op]} ${rt}`, prec: p };
  };
  try {
    const formula = MEASURE_FORMULAS[id]?.formula ?? id;
    const out = run(parseFormula(formula));
    return { number: out.n, expression: out.text, cells };
  } catch (e) {
    if (e instanceof Missing) return e.detail;
    throw e;
  }
}
