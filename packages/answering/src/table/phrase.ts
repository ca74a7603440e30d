import { sliceCodepoints } from '@pinpoint/core';
import type { Result } from './compute.js';
import { lexiconFor, said } from './lexicon/index.js';
import type { QaCell } from './model.js';
import type { TablePlan } from './question.js';

/** The row's context for the answer: the cells the question matched, else the row's first cell. */
function context(cell: QaCell, plan: TablePlan): string {
  const row = plan.matched.find((m) => m.row.element === cell.element);
  const parts = (row?.cells ?? []).filter((c) => c !== cell).map((c) => c.text);
  const first = cell.element.cells?.[0];
  if (parts.length === 0 && first && first.col !== cell.col)
    parts.push(sliceCodepoints(cell.element.text, first.start, first.end));
  return parts.join(' · ');
}

/**
 * The answer line of a plan's result: a cell found is told with its row's context and its header
 * ("Canada · Carretera — Gross Sales $32,370.00 [1]"), a computed value with how it was computed
 * ("2 — count of 2 rows [1] [2]").
 */
export function answerLine(result: Result, plan: TablePlan, marks: string): string {
  const computed = result.answerCell === undefined;
  const ctx = result.answerCell ? context(result.answerCell, plan) : '';
  const header = result.answerCell?.cell.header;
  const value = header && !computed ? `${header} ${result.value}` : result.value;
  return computed ? `${result.value} — ${result.how} ${marks}` : `${ctx ? `${ctx} — ` : ''}${value} ${marks}`;
}

/**
 * The answer view's line for a table answer, in the question's language: which table answered and
 * how, and a table the question fits almost as well.
 */
export function tableReason(question: string, file: string, how: string, closeFile?: string): string {
  const { say } = lexiconFor(question);
  return said(say.reason, { file, how }) + (closeFile ? said(say.closeTable, { file: closeFile }) : '');
}
