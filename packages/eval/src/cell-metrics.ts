import { readFileSync } from 'node:fs';
import type { Anchor } from '@pinpoint/core';
import type { EvalQuestion } from './dataset.js';
import { normalizeForMatch } from './relevance.js';

/** Table sets (gold[].cells): how precisely answers point at the cell that holds them (DESIGN.md §6). */
export interface CellMetrics {
  /** Share of answerable questions whose answer's first citation is in the gold file and pinpoints one gold cell. */
  'cell@1': number;
  /** Share of answered questions whose first citation is a header row. */
  header_cited_first: number;
}

interface CitedFirst {
  file: string;
  quote: string;
  anchor: Anchor;
}

export interface CellScored {
  answerable: boolean;
  refused: boolean;
  first: CitedFirst | undefined;
  gold: { file: string; cells: string[]; quote?: string }[];
}

const SINGLE_CELL = /^[A-Z]+\d+$/;
const rowOf = (ref: string): number => Number(/\d+$/.exec(ref)?.[0] ?? 0);

/** A gold table's header row as the parsers join a row's cells (" | "), read from an HTML file's first <tr>. */
function htmlHeaderText(path: string): string | undefined {
  const html = readFileSync(path, 'utf8');
  const row = /<tr\b[^>]*>([\s\S]*?)<\/tr>/i.exec(html)?.[1];
  if (!row) return undefined;
  const cells = [...row.matchAll(/<t[hd]\b[^>]*>([\s\S]*?)<\/t[hd]>/gi)].map((m) =>
    (m[1] ?? '')
      .replace(/<[^>]*>/g, '')
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  return cells.filter((c) => c !== '').join(' | ');
}

/** Is the citation a header row (row 1 of the gold grid)? Record anchors by their row; text anchors by the header's text. */
function citesHeader(c: CitedFirst, headerText: (file: string) => string | undefined): boolean {
  const a = c.anchor;
  if (a.kind === 'record') {
    const refs = a.cell_range?.split(':') ?? [];
    if (refs.length > 0 && refs.every((r) => rowOf(r) === 1)) return true;
    return a.physical_lines ? a.row === 0 : a.row === 1;
  }
  const header = headerText(c.file);
  return header !== undefined && header !== '' && normalizeForMatch(c.quote) === normalizeForMatch(header);
}

/** Does the citation pinpoint exactly one gold cell: a single-cell record anchor among gold.cells, or a text anchor whose quote is the answer? */
function pinpointsGoldCell(c: CitedFirst, gold: CellScored['gold']): boolean {
  const g = gold.find((x) => x.file === c.file);
  if (!g) return false;
  if (c.anchor.kind === 'record') {
    const range = c.anchor.cell_range;
    return range !== undefined && SINGLE_CELL.test(range) && g.cells.includes(range);
  }
  return g.quote !== undefined && normalizeForMatch(c.quote) === normalizeForMatch(g.quote);
}

const ratio = (a: number, b: number): number => (b === 0 ? 0 : Math.round((a / b) * 10000) / 10000);

/** cell@1 and the header-cited-first share; undefined when the set has no gold cells. */
export function computeCellMetrics(questions: CellScored[], docsDir: string): CellMetrics | undefined {
  if (!questions.some((q) => q.gold.some((g) => g.cells.length > 0))) return undefined;
  const headers = new Map<string, string | undefined>();
  const headerText = (file: string): string | undefined => {
    if (!/\.html?$/i.test(file)) return undefined;
    if (!headers.has(file)) headers.set(file, htmlHeaderText(`${docsDir}/${file}`));
    return headers.get(file);
  };
  const answerable = questions.filter((q) => q.answerable);
  const answered = questions.filter((q) => !q.refused && q.first);
  const pinpointed = answerable.filter((q) => !q.refused && q.first && pinpointsGoldCell(q.first, q.gold));
  const header = answered.filter((q) => q.first && citesHeader(q.first, headerText));
  return { 'cell@1': ratio(pinpointed.length, answerable.length), header_cited_first: ratio(header.length, answered.length) };
}

/** The gold of a question with its cells (table sets), for computeCellMetrics. */
export function cellGold(q: EvalQuestion): CellScored['gold'] {
  return q.gold.map((g) => ({ file: g.file, cells: g.cells ?? [], ...(g.quote !== undefined ? { quote: g.quote } : {}) }));
}
