import type { QaColumn, QaRow, QaTable } from './model.js';

/** Japanese era names and the Gregorian year before each era's first year. */
const ERAS: Record<string, number> = { 令和: 2018, 平成: 1988, 昭和: 1925 };
const ERA_YEAR = /(令和|平成|昭和)\s*(\d{1,2}|元)\s*年/gu;
const YEAR = /(?<!\d)((?:19|20)\d{2})(?!\d)/gu;

/**
 * The years a text names, in order: "2019年３月31日", "自 2018年4月1日 至 2019年3月31日", "令和2年"
 * (2020), "FY 2019". NFKC first, so full-width digits read as digits.
 */
export function yearsIn(text: string): number[] {
  const t = text.normalize('NFKC');
  const found: { at: number; year: number }[] = [];
  for (const m of t.matchAll(ERA_YEAR)) {
    const n = m[2] === '元' ? 1 : Number(m[2]);
    found.push({ at: m.index ?? 0, year: (ERAS[m[1] as string] as number) + n });
  }
  for (const m of t.matchAll(YEAR)) found.push({ at: m.index ?? 0, year: Number(m[1]) });
  return found.sort((a, b) => a.at - b.at).map((f) => f.year);
}

/** Rows above a column's first number: where a table without a header row says what its columns are. */
const LEADING_ROWS = 4;

/**
 * The year each column's period ends in, from its header or the rows above its first number
 * ("前事業年度 (自 2018年4月1日 至 2019年3月31日)" ends in 2019), with the rows that said it. Empty
 * unless two columns or more end in different years: a table whose columns are periods.
 */
export function periodColumns(table: QaTable): PeriodColumns {
  let found = read.get(table);
  if (!found) {
    found = readPeriods(table);
    read.set(table, found);
  }
  return found;
}

interface PeriodColumns {
  years: Map<number, number>;
  labelRows: Set<QaRow>;
}
const read = new WeakMap<QaTable, PeriodColumns>();

function readPeriods(table: QaTable): PeriodColumns {
  const years = new Map<number, number>();
  const labelRows = new Set<QaRow>();
  for (const col of table.columns) {
    if (isYearOnlyData(table, col)) continue;
    const said = [col.name];
    const rows: QaRow[] = [];
    for (const row of table.rows.slice(0, LEADING_ROWS)) {
      const cell = row.cells.get(col.col);
      if (cell?.num !== null && cell?.num !== undefined && yearsIn(cell.text).length === 0) break;
      if (cell && yearsIn(cell.text).length > 0) {
        said.push(cell.text);
        rows.push(row);
      }
    }
    const ends = said.map((s) => yearsIn(s).at(-1)).filter((y): y is number => y !== undefined);
    const end = ends.at(-1);
    if (end === undefined) continue;
    years.set(col.col, end);
    for (const r of rows) labelRows.add(r);
  }
  if (new Set(years.values()).size < 2) return { years: new Map(), labelRows: new Set() };
  return { years, labelRows };
}

/** A column of years ("Year": 1998, 1999 …) is a column of values, not a period. */
function isYearOnlyData(table: QaTable, col: QaColumn): boolean {
  const cells = table.rows.map((r) => r.cells.get(col.col)?.text.trim() ?? '').filter((t) => t !== '');
  return cells.length > 0 && cells.filter((t) => /^(?:19|20)\d{2}$/.test(t)).length * 2 > cells.length;
}

/** The one year a question names ("2020年の", "in 2019", "令和2年"); undefined when it names none or several. */
export function questionYear(question: string): number | undefined {
  const years = new Set(yearsIn(question));
  return years.size === 1 ? [...years][0] : undefined;
}
