import type { Box } from '@pinpoint/core';
import type { PdfBlock } from '../blocks.js';
import type { PageContent } from '../page-content.js';
import type { Quarter, Run } from '../runs.js';
import { toFrame } from '../runs.js';
import { NUMBER, YEAR } from './cell-text.js';
import { latticeTables } from './lattice.js';
import type { PdfTable, PdfTableCell } from './pdf-table.js';
import { unionBox } from './pdf-table.js';
import { joinRulings, pageRulings } from './rulings.js';
import { hasColumnBlock, streamTables } from './stream.js';
import type { TextRow, Word } from './words.js';
import { splitWords, textRows } from './words.js';

/** More words than this on a page: not read for tables (a generated stress page; real dense pages hold ~3,000). */
const MAX_WORDS = 6_000;

export interface PageTables {
  tables: PdfTable[];
  /** The text items whose words went into a table: the page's paragraphs leave them out. */
  consumed: Set<Run>;
  /** Why the page was not read for tables, when it was not. */
  skipped?: string;
}

/**
 * Leading rows that hold no number other than a year (period headers) and some text over the value
 * columns (a row label alone is a section of the body): up to three (a header set on three lines),
 * never every row. A table whose rows all read as text, or whose text rows run on past three, has its
 * first row as the header.
 */
function headerRows(cells: PdfTableCell[], rowCount: number): number {
  let n = 0;
  while (n < rowCount) {
    const row = cells.filter((c) => c.row === n && c.text !== '');
    if (row.length === 0 || row.some((c) => NUMBER.test(c.text) && !YEAR.test(c.text))) break;
    if (n > 0 && row.every((c) => c.col === 0)) break;
    n++;
  }
  return n >= rowCount - 1 || n > 3 ? Math.min(n, 1) : n;
}

/** The single-segment row just above the table (within two lines), as its title. */
function titleAbove(rows: TextRow[], words: Set<Word>): string | undefined {
  const first = rows.findIndex((r) => r.words.some((w) => words.has(w)));
  const row = rows[first - 1];
  const top = rows[first];
  if (!row || !top || row.segments.length !== 1 || top.top - row.bottom > 2 * top.size) return undefined;
  const text = row.segments[0]?.text.trim() ?? '';
  return text.length > 0 && text.length <= 160 ? text : undefined;
}

function toTable(
  grid: { cells: PdfTableCell[]; rowCount: number; colCount: number; words: Set<Word> },
  flavor: PdfTable['flavor'],
  page: number,
  rows: TextRow[],
): PdfTable {
  const boxes: Box[] = grid.cells.filter((c) => c.text !== '').map((c) => c.box);
  const title = titleAbove(rows, grid.words);
  return {
    page_index: page,
    flavor,
    box: unionBox(boxes),
    rowCount: grid.rowCount,
    colCount: grid.colCount,
    cells: grid.cells.filter((c) => c.text !== ''),
    headerRows: headerRows(grid.cells, grid.rowCount),
    ...(title ? { title } : {}),
  };
}

/**
 * Text of the page's other writing directions (a column header set on its side) as words of the main
 * direction's frame `q`: their page boxes turned back into that frame (see toRun).
 */
function turnedWords(runs: Run[], q: Quarter, view: number[], source: Map<Word, Run>): Word[] {
  const [vx0 = 0, , , vy1 = 0] = view;
  return runs.map((run) => {
    const [x0, y0, x1, y1] = run.box;
    const [a, b] = [toFrame(x0 + vx0, vy1 - y0, q), toFrame(x1 + vx0, vy1 - y1, q)];
    const word: Word = {
      ...run,
      fx0: Math.min(a[0], b[0]),
      fx1: Math.max(a[0], b[0]),
      ftop: Math.min(a[1], b[1]),
      fbottom: Math.max(a[1], b[1]),
    };
    source.set(word, run);
    return word;
  });
}

/**
 * The tables of one page from its text items (those of the page's main writing direction) and its
 * drawn lines (from the page's content as its text layer's reading decoded it): ruled grids first, then
 * unruled ones in the text left over. The drawn lines are read only when some block of rows lines up in
 * columns.
 */
export function findPageTables(
  page: { content: PageContent | undefined; view: number[]; index: number },
  groups: Run[][],
): PageTables {
  const runs = groups[0] ?? [];
  const source = new Map<Word, Run>();
  const words: Word[] = [];
  for (const run of runs)
    for (const w of splitWords(run)) {
      source.set(w, run);
      words.push(w);
    }
  if (words.length > MAX_WORDS) return { tables: [], consumed: new Set(), skipped: `${words.length} words` };
  const rows = textRows(words);
  if (!hasColumnBlock(rows)) return { tables: [], consumed: new Set() };
  const tables: PdfTable[] = [];
  const used = new Set<Word>();
  const q = runs[0]?.quarter ?? 0;
  const rulings = pageRulings(page.content, q);
  const joined = joinRulings(rulings);
  const turned = turnedWords(groups.slice(1).flat(), q, page.view, source);
  for (const grid of latticeTables(joined, words, turned)) {
    tables.push(toTable(grid, 'lattice', page.index, rows));
    for (const w of grid.words) used.add(w);
  }
  const rest = used.size > 0 ? textRows(words.filter((w) => !used.has(w))) : rows;
  for (const grid of streamTables(rest, joined)) {
    tables.push(toTable(grid, 'stream', page.index, rows));
    for (const w of grid.words) used.add(w);
  }
  const consumed = new Set([...used].map((w) => source.get(w) as Run));
  const result: PageTables = { tables, consumed };
  if (rulings.capped) result.skipped = 'too many drawn lines';
  return result;
}

/**
 * Tables on an OCR'd page: the same unruled-table reading over the recognised words (each OCR'd
 * line's word spans, boxes already in PDF points). Lines whose every word went into a table leave.
 */
export function findOcrTables(blocks: PdfBlock[], pageIndex: number): { tables: PdfTable[]; kept: PdfBlock[] } {
  const owner = new Map<Word, PdfBlock>();
  const words: Word[] = [];
  for (const block of blocks) {
    const chars = Array.from(block.text);
    for (const s of block.spans) {
      const [x0, y0, x1, y1] = s.box;
      const size = Math.max(1, y1 - y0);
      const text = chars.slice(s.start, s.end).join('');
      const word: Word = { text, quarter: 0, fx0: x0, fx1: x1, ftop: y0, fbottom: y1, base: y1, size, box: s.box, rtl: false };
      owner.set(word, block);
      words.push(word);
    }
  }
  if (words.length === 0 || words.length > MAX_WORDS) return { tables: [], kept: blocks };
  const rows = textRows(words);
  const tables: PdfTable[] = [];
  const used = new Set<Word>();
  for (const grid of streamTables(rows)) {
    tables.push(toTable(grid, 'stream', pageIndex, rows));
    for (const w of grid.words) used.add(w);
  }
  const kept = blocks.filter((b) => b.spans.length === 0 || !words.every((w) => owner.get(w) !== b || used.has(w)));
  return { tables, kept };
}
