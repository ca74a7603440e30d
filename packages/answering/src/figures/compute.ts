import type { FigureOp } from './plan.js';

/** One operand of a calculation: its place in the citation list, its number and how the document writes it. */
export interface Operand {
  n: number;
  number: number;
  written: string;
}

/** A computed figure: the result and its expression over the operands as the document writes them. */
export interface Computed {
  number: number;
  expression: string;
}

/** Why a calculation cannot be made (PP_FIGURE_* codes, docs/errors.md). */
export class FigureError extends Error {
  constructor(
    readonly code: 'PP_FIGURE_DIVIDE_BY_ZERO' | 'PP_FIGURE_OPERANDS' | 'PP_FIGURE_CURRENCIES' | 'PP_FIGURE_UNIT',
    message: string,
  ) {
    super(message);
  }
}

/** A written operand inside an expression: a negative as the document writes it, bracketed. */
const shown = (o: Operand): string => o.written;
const divide = (a: number, b: number): number => {
  if (b === 0) throw new FigureError('PP_FIGURE_DIVIDE_BY_ZERO', 'The figure would divide by zero.');
  return a / b;
};

/**
 * Computes an operation over its operands, in the order the plan located them: for a change, the
 * earlier period first; for a ratio or share, the part (numerator) first.
 */
export function compute(op: FigureOp, operands: Operand[], percent: boolean): Computed {
  const [a, b] = operands;
  if (!a) throw new FigureError('PP_FIGURE_OPERANDS', 'No operand was found.');
  const pct = percent ? ' × 100' : '';
  const scale = percent ? 100 : 1;
  switch (op) {
    case 'value':
      return { number: a.number, expression: shown(a) };
    case 'change':
      if (!b) break;
      return { number: b.number - a.number, expression: `${shown(b)} − ${shown(a)}` };
    case 'pctChange':
      if (!b) break;
      return {
        number: divide(b.number - a.number, a.number) * 100,
        expression: `(${shown(b)} − ${shown(a)}) ÷ ${shown(a)} × 100`,
      };
    case 'average':
      return {
        number: operands.reduce((s, o) => s + o.number, 0) / operands.length,
        expression: `(${operands.map(shown).join(' + ')}) ÷ ${operands.length}`,
      };
    case 'sum':
      return { number: operands.reduce((s, o) => s + o.number, 0), expression: operands.map(shown).join(' + ') };
    case 'ratio':
    case 'share': {
      if (!b) break;
      // a part of two line items ("land and leasehold improvements over the gross cost"): their sum over the whole
      const parts = operands.slice(0, -1);
      const whole = operands.at(-1) as Operand;
      const part = parts.length === 1 ? shown(a) : `(${parts.map(shown).join(' + ')})`;
      const sum = parts.reduce((s, o) => s + o.number, 0);
      return { number: divide(sum, whole.number) * scale, expression: `${part} ÷ ${shown(whole)}${op === 'share' ? pct : ''}` };
    }
  }
  throw new FigureError('PP_FIGURE_OPERANDS', `The ${op} needs two operands.`);
}

export { rounded } from './round.js';
