import { headerScale } from '@pinpoint/analysis';
import type { FigureValue } from '@pinpoint/core';
import { lexiconFor } from '../table/lexicon/index.js';
import type { QaCell, QaRow, QaTable } from '../table/model.js';
import { datedRows, periodColumns } from '../table/period-columns.js';
import { amountOf } from './amount.js';
import { askedForm, stateFigure } from './asked.js';
import { tableCurrency, tableScale } from './locate.js';
import { figureLine, fill } from './phrase.js';
import { FIGURE_WORDS } from './words.js';

/** A looked-up figure as an answer states it: the line (figure first, then line item and period) and its value. */
export interface LookupFigure {
  text: string;
  value: FigureValue;
}

/** A row's label: its first own cell that states no amount. */
function rowLabel(row: QaRow, skip: QaCell): string {
  for (const c of row.cells.values()) if (c !== skip && c.text.trim() !== '' && amountOf(c.text) === null) return c.text.trim();
  return '';
}

/**
 * A cell's figure as the document writes it, without its currency (the answer says the unit) and,
 * for an outflow stated as its size, without its brackets: "△ 23,728", "16,968", "1,577".
 */
function digitsOf(written: string, size: boolean): string {
  const t = written
    .replace(/US\$|HK\$|NT\$|A\$|C\$|[$€£¥￥]|円|元|\b(?:USD|EUR|GBP|JPY|RMB|CNY)\b|%/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
  return size ? t.replace(/^\(\s*(.*?)\s*\)$/u, '$1') : t;
}

/**
 * A table's answer cell said as a figure, when it is one: an amount in a period's column (or on a
 * dated row), with the unit and scale the table declares, the row's line item and the period —
 * "$1,577 million — Purchases of property, plant and equipment, 2018 [1]", 「16,968百万円（のれん、
 * 2019年3月31日残高）[1]」. An amount a statement writes in brackets (an outflow, a cost) is stated
 * as its size; the citation shows it as written. Undefined for a cell that is no amount of a period.
 */
export function lookupFigure(
  question: string,
  table: QaTable,
  cell: QaCell,
  row: QaRow,
  marks: string,
): LookupFigure | undefined {
  const amount = amountOf(cell.text);
  // a row that names the periods ("2019 | 2018") or a bare year is a period, not a figure
  if (!amount || periodColumns(table).labelRows.has(row) || /^\s*(?:19|20)\d{2}\s*$/u.test(cell.text)) return undefined;
  const column = periodColumns(table).years.has(cell.col);
  const dated = datedRows(table).get(row);
  if (!column && dated === undefined) return undefined;
  const words = FIGURE_WORDS[lexiconFor(question).lang];
  const header = table.columns.find((c) => c.col === cell.col)?.name.trim() ?? '';
  // 営業利益（百万円） names 営業利益: the unit is said with the figure
  const named = headerScale(header).label || header;
  const label = rowLabel(row, cell);
  // a balance on a dated row is named by its column and its row's date; a period column by the row's line item
  const item = column ? label : named || label;
  const period = column ? header || String(periodColumns(table).years.get(cell.col)) : label;
  const declared = tableScale(table);
  const { scale } = declared;
  const unit = declared.unit ?? amount.currency ?? tableCurrency(table);
  const percent = amount.percent || header.includes('%');
  const number = amount.number < 0 && /^\s*\(/u.test(amount.written) ? -amount.number : amount.number;
  const stated = stateFigure(
    number,
    { scale: percent ? 1 : scale, percent, unit: unit && !percent ? unit : undefined },
    askedForm(question),
    words,
    digitsOf(amount.written, number !== amount.number),
  );
  const what = fill(words.say.value, { item, periods: period });
  return { text: figureLine(words, stated.text, what, undefined, marks), value: stated.value };
}
