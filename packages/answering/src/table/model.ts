import { analyze, termKind } from '@pinpoint/analysis';
import type { Element, TableCell } from '@pinpoint/core';
import { CodepointIndex } from '@pinpoint/core';
import { EN_SAID_AS } from './lexicon/en.js';

/** A cell as the table answerer reads it: its text, terms and number, and the element that holds it. */
export interface QaCell {
  col: number;
  text: string;
  terms: Set<string>;
  num: number | null;
  cell: TableCell;
  element: Element;
}

export interface QaRow {
  element: Element;
  /** 0-based position among the table's data rows. */
  index: number;
  cells: Map<number, QaCell>;
}

export interface QaColumn {
  col: number;
  name: string;
  terms: Set<string>;
  /** Share of the column's cells that read as numbers. */
  numeric: number;
  /**
   * The terms of the header the file marked, when a leading row it did not mark names the column
   * too (`terms` holds both): the table's fit to a question weighs these as its header, as before.
   */
  titled?: Set<string>;
}

export interface QaTable {
  file: string;
  title: string;
  columns: QaColumn[];
  rows: QaRow[];
  /** Terms of the whole table: titles, headers and cells. */
  vocabulary: Set<string>;
  /** The headings the table sits under, joined (a report's 「第95期（自 2019年４月１日 至 2020年３月31日）」). */
  headings?: string;
  /** The lines just above the table ("(in thousands, except per share data)"). */
  lead?: string[];
}

/** Index terms of a text, word pairs left out (cells and headers are matched word by word). */
export function termsOf(text: string): Set<string> {
  // a question, its titles and names are read against a dozen tables: their terms are analysed once
  let terms = analysed.get(text);
  if (!terms) {
    terms = analyze(text).filter((t) => termKind(t) !== 'pair');
    if (analysed.size >= ANALYSED) analysed.delete(analysed.keys().next().value as string);
    analysed.set(text, terms);
  }
  return new Set(terms);
}
const ANALYSED = 2048;
const analysed = new Map<string, string[]>();

/** Text of ASCII only: its own NFKC form, with no accent, no full-width form and no Unicode dash. */
const ASCII = /^[\x00-\x7f]*$/;

/** Latin letters with their accents dropped ("Gérard" → "Gerard"); other scripts are left as they are. */
export function unaccented(text: string): string {
  // ASCII has no accent to drop (most cells: figures, English words)
  if (ASCII.test(text)) return text;
  return text
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC');
}

/** A header that says "%" ("% Won Overall") is said as a percentage. */
const PERCENT = termsOf('percentage percent');
/** Each side's terms, and the terms of what it is also said as (both ways). */
const ALSO = new Map<string, { terms: string[]; also: Set<string> }[]>();
for (const [a, b] of EN_SAID_AS) {
  for (const [from, to] of [[a, b], ...b.split(' ').map((w) => [w, a])] as [string, string][]) {
    const terms = [...termsOf(from)];
    const [first] = terms;
    // filed under its first term: a cell is read against the few entries its own terms start
    if (first) ALSO.set(first, [...(ALSO.get(first) ?? []), { terms, also: termsOf(to) }]);
  }
}

/**
 * A cell's or header's terms, with those of its unaccented spelling (a question types "gerard" for
 * Gérard) and of the words it is also said as ("french" for France, "woman" for Women).
 */
export function saidTerms(text: string): Set<string> {
  const terms = termsOf(text);
  const plain = unaccented(text);
  if (plain !== text) for (const t of termsOf(plain)) terms.add(t);
  for (const t of [...terms])
    for (const { terms: said, also } of ALSO.get(t) ?? [])
      if (said.every((x) => terms.has(x))) for (const a of also) terms.add(a);
  return terms;
}

/**
 * The number a cell shows: "$32,370.00" → 32370, "1:25:23" → 5123 (seconds), "12th" → 12, "−5" → -5;
 * null when the cell does not start with a number.
 */
export function cellNumber(text: string): number | null {
  const t = text
    .normalize('NFKC')
    .replace(/\u2212/g, '-')
    .trim();
  const time = /^(\d+):(\d{2})(?::(\d{2}(?:\.\d+)?))?/.exec(t);
  if (time) {
    const [a, b, c] = [Number(time[1]), Number(time[2]), time[3] === undefined ? undefined : Number(time[3])];
    return c === undefined ? a * 60 + b : a * 3600 + b * 60 + c;
  }
  // "January 3, 1947", "14 November 2012": a date reads as its day count, so dates order like numbers
  if (/[a-z]{3,}/i.test(t) && /\b\d{4}\b/.test(t) && /\b\d{1,2}\b/.test(t)) {
    const ms = Date.parse(t.replace(/[^\w ,]/g, ' '));
    if (Number.isFinite(ms)) return Math.round(ms / 86_400_000);
  }
  const m = /^[^\d\-+.]{0,3}([-+]?\d[\d,]*(?:\.\d+)?|[-+]?\.\d+)/.exec(t);
  if (!m?.[1]) return null;
  const n = Number(m[1].replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}

/** A cell that says it has no value: empty, a dash, "N/A", a question mark. */
const NO_VALUE = /^\s*(?:[-\u2010-\u2015\u2212?]*|n\/?a|none)\s*$/i;

/** Rows whose cell in a column holds a value ("the first woman to win": not a year no woman won); all of them when none does. */
export function valued(rows: QaRow[], col: number | undefined): QaRow[] {
  if (col === undefined) return rows;
  const kept = rows.filter((r) => !NO_VALUE.test(r.cells.get(col)?.text ?? ''));
  return kept.length > 0 ? kept : rows;
}

/** Each cell's text of a row, its codepoint range read through one index of the row's text. */
function cellTexts(e: Element): Map<TableCell, string> {
  const index = new CodepointIndex(e.text);
  return new Map((e.cells ?? []).map((c) => [c, e.text.slice(index.toUtf16(c.start), index.toUtf16(c.end))]));
}

/**
 * A cell's text as compared: NFKC, lower case, one space between words, every dash a hyphen — a
 * score typed "0-9" in one row and "0–9" in another is the same score.
 */
export function folded(s: string): string {
  // ASCII is its own NFKC form and has none of those dashes: most cells (figures, English words)
  const text = ASCII.test(s) ? s : s.normalize('NFKC').replace(/[\u2010-\u2015\u2212]/g, '-');
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * A header row repeated inside the data (long tables repeat it): most of its cells read as their
 * column's name (`names` folded, once per table).
 */
function repeatsHeader(cells: Map<number, QaCell>, names: Map<number, string>): boolean {
  if (cells.size < 2) return false;
  let named = 0;
  for (const c of cells.values()) {
    const name = names.get(c.col) ?? '';
    // a blank cell under a blank header reads as it, as folding both would say
    if (c.text !== '' && (name === '' ? c.text.trim() === '' : folded(c.text) === name)) named++;
  }
  return named * 2 >= cells.size;
}

/**
 * One table from its row elements (header and data rows, in order). Cells spanned from rows above
 * (rowspan, vertical merges) read as the cell they come from, so a citation of them opens that cell.
 */
export function buildTable(file: string, docTitle: string, elements: Element[], lead?: string[]): QaTable {
  const headerRows = elements.filter((e) => e.table?.header);
  const dataRows = elements.filter((e) => e.table && !e.table.header);
  const names = new Map<number, string>();
  for (const e of dataRows) for (const c of e.cells ?? []) if (c.header && !names.has(c.col)) names.set(c.col, c.header);
  for (const e of headerRows) {
    for (const [c, text] of cellTexts(e)) if (!names.has(c.col)) names.set(c.col, text);
  }
  const foldedNames = new Map([...names].map(([col, name]) => [col, folded(name)]));
  const rows: QaRow[] = [];
  const last = new Map<number, QaCell>();
  for (const e of dataRows) {
    const cells = new Map<number, QaCell>();
    for (const [c, text] of cellTexts(e)) {
      cells.set(c.col, { col: c.col, text, terms: saidTerms(text), num: cellNumber(text), cell: c, element: e });
    }
    for (const carried of e.table?.carried ?? []) {
      const from = last.get(carried.col);
      if (from && !cells.has(carried.col)) cells.set(carried.col, from);
    }
    for (const [col, cell] of cells) last.set(col, cell);
    if (!repeatsHeader(cells, foldedNames)) rows.push({ element: e, index: rows.length, cells });
  }
  const marked = new Map(names);
  promoteHeaderRows(rows, names);
  const cols = new Set([...names.keys(), ...rows.flatMap((r) => [...r.cells.keys()])]);
  const columns: QaColumn[] = [...cols]
    .sort((a, b) => a - b)
    .map((col) => {
      // a dash or "N/A" says there is no value: it does not make a column of numbers a column of text
      const values = rows.map((r) => r.cells.get(col)).filter((c): c is QaCell => c !== undefined && !NO_VALUE.test(c.text));
      const numeric = values.length === 0 ? 0 : values.filter((c) => c.num !== null).length / values.length;
      const name = names.get(col) ?? '';
      const terms = headerTerms(name);
      if (marked.get(col) === names.get(col)) return { col, name, terms, numeric };
      // a header row the file did not mark names the column, but is no title of the table
      return { col, name, terms, numeric, titled: headerTerms(marked.get(col) ?? '') };
    });
  const title = [docTitle, ...new Set(elements.map((e) => e.table?.title ?? '').filter((t) => t !== ''))].join(' ');
  // the headings the rows sit under: a table's rows share a few
  const sections = [...new Set(elements.flatMap((e) => e.section_path))];
  const vocabulary = new Set([...termsOf(title), ...sections.flatMap((s) => [...termsOf(s)])]);
  for (const c of columns) for (const t of c.terms) vocabulary.add(t);
  for (const r of rows) for (const c of r.cells.values()) for (const t of c.terms) vocabulary.add(t);
  return { file, title, columns, rows, vocabulary, headings: sections.join(' '), ...(lead?.length ? { lead } : {}) };
}

/** A header's terms: its words, and "percentage" when it says "%" ("% Won Overall"). */
function headerTerms(header: string): Set<string> {
  const terms = saidTerms(header);
  if (header.includes('%')) for (const t of PERCENT) terms.add(t);
  return terms;
}

/** A row's own cells that are not empty (not carried down from a row above). */
export function ownCells(r: QaRow): QaCell[] {
  return [...r.cells.values()].filter((c) => c.element === r.element && c.text.trim() !== '');
}

/** Leading rows read as header rows at the most. */
const LEADING_HEADERS = 2;

/**
 * "| | Net Sales | % of Total |" under "| | Fiscal Year 2019 | Fiscal Year 2018 |": a leading row with
 * no label in the table's first column and no number, naming each of two columns of numbers or more
 * under it, is a header row the file did not mark as one (sub-columns under a group header). Its words name the columns under it
 * after the header above ("Fiscal Year 2019 / Net Sales"), and it leaves the data rows.
 */
function promoteHeaderRows(rows: QaRow[], names: Map<number, string>): void {
  const first = Math.min(...rows.flatMap((r) => [...r.cells.keys()]));
  // a column whose cells below the leading rows are mostly numbers
  const numbers = (col: number, from: number): boolean => {
    const below = rows.slice(from).flatMap((r) => ownCells(r).filter((c) => c.col === col));
    return below.length > 0 && below.filter((c) => c.num !== null).length * 2 > below.length;
  };
  // a file that marked no header row at all may have its stub's name (「区分」) over the label column
  const unmarked = [...names.values()].every((n) => n.trim() === '');
  let lead = 0;
  while (lead < Math.min(LEADING_HEADERS, rows.length - 1)) {
    const cells = ownCells(rows[lead] as QaRow);
    const over = cells.filter((c) => c.col !== first);
    // a name over each of two columns of numbers or more, none a number itself, none in the label column
    if (
      over.length < 2 ||
      (!unmarked && over.length < cells.length) ||
      cells.some((c) => c.num !== null) ||
      over.some((c) => !numbers(c.col, lead + 1))
    )
      break;
    lead++;
  }
  if (lead === 0 || !rows.slice(lead).some((r) => ownCells(r).some((c) => c.num !== null))) return;
  const cols = [...new Set(rows.flatMap((r) => [...r.cells.keys()]))].sort((a, b) => a - b);
  rows.slice(0, lead).forEach((r, i) => {
    const cells = new Map(ownCells(r).map((c) => [c.col, c.text]));
    const under = new Set(rows.slice(i + 1, lead).flatMap((x) => ownCells(x).map((c) => c.col)));
    let carry: string | undefined;
    for (const col of cols) {
      // a group's name spread over the sub-columns after it that the rows under it name
      const text = cells.get(col) ?? (col !== first && under.has(col) ? carry : undefined);
      if (cells.has(col)) carry = cells.get(col);
      if (text === undefined) continue;
      const above = names.get(col)?.trim();
      names.set(col, above && folded(above) !== folded(text) ? `${above} / ${text}` : text);
    }
  });
  rows.splice(0, lead);
  rows.forEach((r, i) => {
    r.index = i;
  });
}
