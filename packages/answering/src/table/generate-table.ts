import type { Citation, Element, GenerationSource, Generator as TextGenerator } from '@pinpoint/core';
import { REFUSAL_MARKER } from '@pinpoint/providers';
import type { RankedChunk } from '../candidates.js';
import { refusalMessage } from '../extractive.js';
import { questionLanguage, shownEnd } from '../generate.js';
import type { AnswerEvent, GeneratedAnswer } from '../generate-answer.js';
import { markCitations, verifyAnswer } from '../verify.js';
import type { TableSource } from './answer-table.js';
import { citeCell, tableFor } from './answer-table.js';
import type { QaCell, QaRow, QaTable } from './model.js';

/** Rows of one table shown to the model; a longer table shows the rows the question points at first. */
const GRID_ROWS = 60;

/** A table for the generator, with the rows the keyless reading picked (kept when the table is cut). */
export interface GridInput {
  source: TableSource;
  focus: Element[];
}

/** One table as the model sees it: numbered source, grid text, and every cell by its id ("C4"). */
interface Grid {
  n: number;
  source: TableSource;
  table: QaTable;
  text: string;
  cells: Map<string, QaCell>;
}

/** Column letters as in a spreadsheet: 0 → A, 25 → Z, 26 → AA. */
function columnLetter(index: number): string {
  let s = '';
  for (let i = index + 1; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
}

const flat = (text: string): string => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/**
 * The table as a compact grid: a line naming each column by its letter ("row | A: Country | B: …"),
 * then one line per data row starting with its row number (the header line is row 1). A cell's id is
 * its column letter and row number, so "C4" is the third column of the third data row.
 */
function tableGrid(input: GridInput, n: number): Grid {
  const table = tableFor(input.source);
  const keep = new Set<QaRow>();
  if (table.rows.length <= GRID_ROWS) for (const r of table.rows) keep.add(r);
  else {
    const byElement = new Map(table.rows.map((r) => [r.element, r]));
    for (const e of input.focus) {
      const r = byElement.get(e);
      if (r && keep.size < GRID_ROWS) keep.add(r);
    }
    for (const r of table.rows) if (keep.size < GRID_ROWS) keep.add(r);
  }
  const cells = new Map<string, QaCell>();
  const lines = [
    `Table: ${flat(table.title)}`,
    `row | ${table.columns.map((c, i) => `${columnLetter(i)}: ${flat(c.name)}`).join(' | ')}`,
  ];
  for (const row of table.rows) {
    if (!keep.has(row)) continue;
    const id = row.index + 2;
    const values = table.columns.map((c, i) => {
      const cell = row.cells.get(c.col);
      if (cell) cells.set(`${columnLetter(i)}${id}`, cell);
      return flat(cell?.text ?? '');
    });
    lines.push(`${id} | ${values.join(' | ')}`);
  }
  if (keep.size < table.rows.length) lines.push(`(${table.rows.length - keep.size} more rows not shown)`);
  return { n, source: input.source, table, text: lines.join('\n'), cells };
}

/** The grids as numbered generation sources. */
const gridSources = (grids: Grid[]): GenerationSource[] =>
  grids.map((g) => ({ n: g.n, file: g.source.file, text: g.text, table: true }));

/** [1:C4], [1:C4, D4], [1:C4; 2:B7] — a model's cell citations; a bare [1] cites no cell. */
const CELL_MARKER = /\[\s*(\d{1,3}\s*:\s*[A-Za-z]{1,3}\d{1,6}(?:\s*[,;]\s*(?:\d{1,3}\s*:\s*)?[A-Za-z]{1,3}\d{1,6})*)\s*\]/g;
/** Any bracketed marker the model may write: cell markers, and bare source numbers (dropped). */
const ANY_MARKER =
  /\[\s*\d{1,3}(?:\s*:\s*[A-Za-z]{1,3}\d{1,6})?(?:\s*[,;、，]\s*(?:\d{1,3}\s*:\s*)?(?:[A-Za-z]{1,3}\d{1,6}|\d{1,3}))*\s*\]/g;

/** The cells one marker names, as "n:ID" keys (a bare id belongs to the source named before it). */
function markerCells(list: string): string[] {
  let n = '';
  const out: string[] = [];
  for (const part of list.split(/[,;]/)) {
    const m = /^\s*(?:(\d{1,3})\s*:\s*)?([A-Za-z]{1,3}\d{1,6})\s*$/.exec(part);
    if (!m?.[2]) continue;
    n = m[1] ?? n;
    out.push(`${n}:${m[2].toUpperCase()}`);
  }
  return out;
}

/** A verified cell citation: the grid cell, its table, and the citation made of it. */
interface CitedCell {
  key: string;
  cell: QaCell;
  grid: Grid;
  citation: Citation;
}

/**
 * Rewrites a model's cell markers into answer citations [1], [2] … numbered by first use. Only ids
 * naming a cell of a grid count; other markers (unknown cells, a table cited whole) are dropped.
 * Streaming: text that may still become a marker or the refusal marker is held back.
 */
class CellRenumberer {
  private raw = '';
  private sent = 0;
  readonly cited: CitedCell[] = [];

  constructor(private readonly grids: Grid[]) {}

  private resolve(key: string): CitedCell | undefined {
    const known = this.cited.find((c) => c.key === key);
    if (known) return known;
    const [n, id] = key.split(':');
    const grid = this.grids.find((g) => String(g.n) === n);
    const cell = grid?.cells.get(id ?? '');
    if (!grid || !cell) return undefined;
    const citation = citeCell(cell, this.cited.length + 1, grid.source);
    if (!citation) return undefined;
    const c = { key, cell, grid, citation };
    this.cited.push(c);
    return c;
  }

  push(piece: string, final = false): { text: string; firstUse: CitedCell[] } {
    this.raw += piece;
    const end = shownEnd(this.raw, this.sent, final, 48);
    const before = this.cited.length;
    const text = this.raw.slice(this.sent, end).replace(ANY_MARKER, (marker) => {
      const inner = new RegExp(CELL_MARKER.source).exec(marker)?.[1];
      if (!inner) return '';
      const nums = markerCells(inner)
        .map((key) => this.resolve(key))
        .filter((c): c is CitedCell => c !== undefined)
        .map((c) => this.cited.indexOf(c) + 1);
      return [...new Set(nums)].map((k) => `[${k}]`).join('');
    });
    this.sent = end;
    return { text, firstUse: this.cited.slice(before) };
  }
}

/** What a cited cell is checked against: its table's title and its row as "Header: value" pairs. */
function rowText(c: CitedCell): string {
  const row = c.grid.table.rows.find((r) => r.element === c.cell.element);
  const pairs = c.grid.table.columns.map((col) => {
    const cell = row?.cells.get(col.col);
    return cell ? `${col.name}: ${cell.text}` : '';
  });
  return `${c.grid.table.title}\n${pairs.filter((p) => p !== '').join(' · ')}`;
}

export interface TableGenerateInput {
  question: string;
  /** The tables the keyless reading found, the one it chose first. */
  tables: GridInput[];
  generator: TextGenerator;
  signal?: AbortSignal;
}

/**
 * A generated answer over tables: each table goes to the model as a grid with cell ids, the model
 * cites cells ([1:C4]), and each id is checked against the grid — an id naming no cell is dropped, an
 * answer left with no cell is a refusal. Citations are cell anchors (sheet/CSV cell, HTML cell range,
 * DOCX record, slide box); each citing sentence is verified against the rows of the cells it cites.
 */
export async function* streamTableAnswer(input: TableGenerateInput): AsyncGenerator<AnswerEvent> {
  const grids = input.tables.map((t, i) => tableGrid(t, i + 1));
  const language = questionLanguage(input.question);
  const renumber = new CellRenumberer(grids);
  let raw = '';
  let answer = '';
  const emit = function* (piece: string, final: boolean): Generator<AnswerEvent> {
    const { text, firstUse } = renumber.push(piece, final);
    answer += text;
    if (raw.includes(REFUSAL_MARKER)) return;
    if (text) yield { type: 'delta', text };
    for (const c of firstUse) yield { type: 'citation', citation: c.citation };
  };
  const stream = input.generator.generate({ question: input.question, sources: gridSources(grids), language }, input.signal);
  for await (const piece of stream) {
    raw += piece;
    yield* emit(piece, false);
  }
  yield* emit('', true);
  yield { type: 'done', answer: await finish(raw, answer, renumber.cited, input) };
}

async function finish(raw: string, text: string, cited: CitedCell[], input: TableGenerateInput): Promise<GeneratedAnswer> {
  const generator = input.generator.id;
  const refusal = (reason: 'model-refused' | 'no-citations', said = ''): GeneratedAnswer => ({
    refused: true,
    refusal_reason: reason,
    answer: said || refusalMessage(input.question),
    citations: [],
    sources: [],
    sentences: [],
    generator,
  });
  if (raw.includes(REFUSAL_MARKER)) {
    const said = raw
      .slice(raw.indexOf(REFUSAL_MARKER) + REFUSAL_MARKER.length)
      .replace(ANY_MARKER, '')
      .trim();
    return refusal('model-refused', said);
  }
  if (cited.length === 0) return refusal('no-citations');
  const answer = text.replace(/[ \t]+([.。,，!?！？])/g, '$1').trim();
  const sources: RankedChunk[] = cited.map((c) => ({
    chunk: c.grid.source.chunkOf(c.cell.element.element_id) as RankedChunk['chunk'],
    elements: [c.cell.element],
    file: c.grid.source.file,
    rank: 0,
    score: 0,
  }));
  const sentences = await verifyAnswer(answer, (k) => (cited[k - 1] ? rowText(cited[k - 1] as CitedCell) : undefined), {
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const citations = markCitations(
    cited.map((c) => c.citation),
    sentences,
  );
  return { refused: false, answer, citations, sources, sentences, generator };
}
