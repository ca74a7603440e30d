import type { GridInput, TableAnswer, TableSource } from '@pinpoint/answering';
import { answerFromTables, planFigure, tableReason } from '@pinpoint/answering';
import type { Chunk, Element, MetadataStore, Retrieved, Version } from '@pinpoint/core';
import { identityCatalog } from './identity-catalog.js';
import { dataRows, tableOfRow } from './table-rows.js';

/** A retrieved chunk loaded with its version. */
export interface Candidate {
  hit: Retrieved;
  chunk: Chunk;
  version: Version;
}

/** Candidates whose row is looked at for its table, and tables read per question. */
const TABLE_HEAD = 50;
const MAX_TABLES = 8;
/** Tables read per question when a wider lexical list is searched for them. */
const WIDE_TABLES = 12;
/**
 * … for a figure question: every table whose row its line item names is read, so that documents
 * giving the figure differently are all seen (the question is then refused as ambiguous).
 */
const FIGURE_TABLES = 20;
/** Rows of the answer's table put first in the retrieved list, then the row each runner-up table picks. */
const TABLE_ROWS_FIRST = 3;
const TABLE_ALTERNATIVES = 3;
/** A runner-up whose fit is within this of the chosen table's is shown second: the question hardly tells the two apart. */
const CLOSE_FIT = 0.2;
/** Tables a generator is shown: the chosen one and the best runners-up (the question may be about one of them). */
const GENERATED_TABLES = 3;

const titleOf = (name: string): string => name.replace(/\.[^.]+$/, '').replace(/_/g, ' ');

/** A ranked row chunk: its chunk, version and 1-based rank. */
export interface RowHit {
  chunk: Chunk;
  file: string;
  rank: number;
}

/**
 * The tables of the ranked row chunks (a table row's chunk holds that one row), each with all its
 * rows, in the order of their best row, up to `limit` tables. The hits' elements are read first
 * (one query per version); a table is read only when one of its data rows is a hit (table-rows.ts).
 */
export async function tableSources(metadata: MetadataStore, hits: RowHit[], limit: number): Promise<TableSource[]> {
  const single = hits.filter((h) => h.chunk.elements.length === 1);
  const byVersion = new Map<string, string[]>();
  for (const h of single) {
    const id = h.chunk.elements[0]?.element_id as string;
    byVersion.set(h.chunk.version_id, [...(byVersion.get(h.chunk.version_id) ?? []), id]);
  }
  const rowOf = new Map<string, Element>();
  for (const [versionId, ids] of byVersion) {
    for (const [id, e] of await dataRows(metadata, versionId, ids)) rowOf.set(`${versionId}\u0000${id}`, e);
  }
  const sources = new Map<string, TableSource>();
  for (const h of single) {
    if (sources.size >= limit) break;
    const versionId = h.chunk.version_id;
    const row = rowOf.get(`${versionId}\u0000${h.chunk.elements[0]?.element_id}`);
    if (!row?.table) continue;
    const key = `${versionId}:${row.table.index}`;
    if (sources.has(key)) continue;
    const table = await tableOfRow(metadata, row, h.chunk);
    if (!table) continue;
    // the names the document's identity gives it: a question that names a company is matched against them
    const [identity] = await identityCatalog(metadata).candidates([versionId]);
    sources.set(key, {
      versionId,
      file: h.file,
      title: titleOf(h.file),
      names: identity?.identity.names.map((n) => n.value) ?? [],
      elements: table.rows,
      ...(table.lead.length > 0 ? { lead: table.lead } : {}),
      chunkOf: (id) => table.chunks.get(id),
      rank: h.rank,
    });
  }
  return [...sources.values()];
}

/**
 * The retrieved list with the answer's table rows first (in answer order), then the row each
 * runner-up table would answer with (the question may be about another table), then the rest as retrieved.
 */
function reorder(found: Candidate[], answer: TableAnswer, source: TableSource | undefined): Retrieved[] {
  const byChunk = new Map(found.map((f) => [f.chunk.chunk_id, f]));
  const head: Retrieved[] = [];
  // a runner-up table the question fits almost as well goes before the chosen table's further rows
  const alternatives = answer.alternatives.slice(0, TABLE_ALTERNATIVES);
  const close = alternatives.filter((a) => a.behind <= CLOSE_FIT).slice(0, 1);
  const rows = answer.rows.slice(0, TABLE_ROWS_FIRST).map((row) => ({ source, row }));
  const more = answer.rows.slice(TABLE_ROWS_FIRST, TABLE_ROWS_FIRST + 4).map((row) => ({ source, row }));
  const picks = [...rows.slice(0, 1), ...close, ...rows.slice(1), ...alternatives.filter((a) => !close.includes(a)), ...more];
  for (const { source, row: e } of picks) {
    const chunk = source?.chunkOf(e.element_id);
    if (!chunk) continue;
    const f = byChunk.get(chunk.chunk_id);
    head.push(
      f?.hit ?? {
        rank: 0,
        chunk_id: chunk.chunk_id,
        document_id: chunk.document_id,
        version_id: chunk.version_id,
        file: source?.file ?? '',
        // a PDF table's row says its page, as every retrieved chunk of a page does
        ...(chunk.page_index !== undefined ? { page_index: chunk.page_index } : {}),
        section_path: chunk.section_path,
        text: chunk.text,
        scores: {},
        ranks: {},
      },
    );
  }
  const seen = new Set(head.map((h) => h.chunk_id));
  return [...head, ...found.map((f) => f.hit).filter((h) => !seen.has(h.chunk_id))].map((h, i) => ({ ...h, rank: i + 1 }));
}

/**
 * Table answering for a question whose best candidate is a table row: the tables of the first
 * candidates are read whole, the answer cites cells, and the answer's rows lead the retrieved list.
 * Undefined when the first candidate is not a table row (the extractive answer applies).
 */
export async function answerTableQuestion(
  metadata: MetadataStore,
  question: string,
  found: Candidate[],
  queryTerms: { term: string; weight: number }[],
  wider?: () => Promise<RowHit[]>,
): Promise<{ answer: TableAnswer; retrieved: Retrieved[]; tables: GridInput[]; reason: TableReason | undefined } | undefined> {
  const first = found[0];
  // a page's prose leads: no table of the list can answer (isTableQuestion), none is read
  if (!first || (isPaged(first) && !(await isDataRow(metadata, first.chunk)))) return undefined;
  const head = found.slice(0, TABLE_HEAD).map((c) => ({ chunk: c.chunk, file: c.version.original_name, rank: c.hit.rank }));
  let sources = await tableSources(metadata, head, MAX_TABLES);
  if (!isTableQuestion(first, sources)) return undefined;
  // a question need not name its table: the tables of a wider lexical list join the candidates. Not
  // on pages: there the first candidate is itself a row of the table asked about (isTableQuestion),
  // and a report's tables whose rows rank below its first 50 hits are not what the question names
  if (wider && !isPaged(first)) {
    const wide = planFigure(question) ? FIGURE_TABLES : WIDE_TABLES;
    const more = await tableSources(metadata, await wider(), wide);
    // a table is known by its version and first row: the version cache may have read it again since
    const keyOf = (s: TableSource): string => `${s.versionId}:${s.elements[0]?.element_id ?? ''}`;
    const have = new Set(sources.map(keyOf));
    sources = [...sources, ...more.filter((s) => !have.has(keyOf(s)))].slice(0, wide);
  }
  const weights = new Map(queryTerms.map((q) => [q.term, q.weight]));
  const answer = answerFromTables(question, sources, weights);
  // a page's table that cannot answer leaves the question to the page's prose
  if (!answer || (answer.refused && isPaged(first))) return undefined;
  const source = sources.find((s) => answer.rows[0] && s.elements.includes(answer.rows[0]));
  const tables = [
    ...(source ? [{ source, focus: answer.rows }] : []),
    ...answer.alternatives.map((a) => ({ source: a.source, focus: [a.row] })),
  ].slice(0, GENERATED_TABLES);
  return { answer, retrieved: reorder(found, answer, source), tables, reason: reasonOf(question, answer, source) };
}

/** The chunk is one data row of a table (a header row alone is never a chunk of its own). */
async function isDataRow(metadata: MetadataStore, chunk: Chunk): Promise<boolean> {
  const [only, ...more] = chunk.elements;
  if (!only || more.length > 0) return false;
  return (await dataRows(metadata, chunk.version_id, [only.element_id])).has(only.element_id);
}

/** Documents of pages (PDF, slides, scans): their tables sit among paragraphs of prose. */
const PAGED = new Set(['pdf', 'pptx', 'ppt', 'png', 'jpeg', 'tiff']);
const isPaged = (c: Candidate): boolean => !!c.version.format && PAGED.has(c.version.format);

/**
 * The best candidate is a table row, or a heading of a document whose table is among the
 * candidates — a document that is a table (a sheet, a CSV, an HTML page of one table). In a
 * document of pages, a table among hundreds of pages of prose answers only when its own row
 * leads: a 10-K's prose question is not a table question because the 10-K holds tables.
 */
function isTableQuestion(first: Candidate, sources: TableSource[]): boolean {
  if (sources.some((s) => s.rank === first.hit.rank)) return true;
  if (isPaged(first)) return false;
  return sources.some((s) => s.versionId === first.chunk.version_id);
}

/**
 * The answer view's line for a table answer (in the question's language): which table answered
 * and how, and a table the question fits almost as well, since a question need not name its table. None for a refusal,
 * whose reason the answer view already gives.
 */
function reasonOf(question: string, answer: TableAnswer, source: TableSource | undefined): TableReason | undefined {
  if (answer.refused || !source) return undefined;
  const close = answer.alternatives.find((a) => a.behind <= CLOSE_FIT && a.source.file !== source.file);
  return {
    // the line in the question's language; the code and params let a client word it in its own
    reason: tableReason(question, source.file, answer.how, close?.source.file),
    reason_code: 'table',
    reason_params: { file: source.file, how: answer.how, ...(close ? { other: close.source.file } : {}) },
  };
}

/** The table line in the question's language (`reason`) and as a code with params for a client's own language. */
interface TableReason {
  reason: string;
  reason_code: 'table';
  reason_params: { file: string; how: string; other?: string };
}
