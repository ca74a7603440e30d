import type { TableAnswer, TableSource } from '@pinpoint/answering';
import { answerFromTables } from '@pinpoint/answering';
import type { Chunk, Element, MetadataStore, Retrieved, Version } from '@pinpoint/core';

/** A retrieved chunk loaded with its version. */
export interface Candidate {
  hit: Retrieved;
  chunk: Chunk;
  version: Version;
}

/** Candidates whose row is looked at for its table, and tables read per question. */
const TABLE_HEAD = 50;
const MAX_TABLES = 8;
/** Rows of the answer's table put first in the retrieved list, then the row each runner-up table picks. */
const TABLE_ROWS_FIRST = 3;
const TABLE_ALTERNATIVES = 3;

const titleOf = (name: string): string => name.replace(/\.[^.]+$/, '').replace(/_/g, ' ');

/** A table's rows and the chunk of each row: versions are immutable, so they are kept per store for the next question. */
interface LoadedTable {
  rows: Element[];
  chunks: Map<string, Chunk>;
}
const TABLE_CACHE = 64;
const loaded = new WeakMap<MetadataStore, Map<string, LoadedTable>>();

async function loadTables(metadata: MetadataStore, versionId: string): Promise<Map<number, LoadedTable>> {
  const all = await metadata.getElements(versionId);
  const list = await metadata.listChunks(versionId);
  const chunks = new Map(list.filter((x) => x.elements.length === 1).map((x) => [x.elements[0]?.element_id as string, x]));
  const out = new Map<number, LoadedTable>();
  for (const e of all) {
    if (!e.table) continue;
    const t = out.get(e.table.index) ?? { rows: [], chunks };
    t.rows.push(e);
    out.set(e.table.index, t);
  }
  return out;
}

async function tableOf(metadata: MetadataStore, versionId: string, index: number): Promise<LoadedTable | undefined> {
  let cache = loaded.get(metadata);
  if (!cache) {
    cache = new Map();
    loaded.set(metadata, cache);
  }
  const key = `${versionId}:${index}`;
  if (!cache.has(key)) {
    for (const [i, t] of await loadTables(metadata, versionId)) cache.set(`${versionId}:${i}`, t);
    while (cache.size > TABLE_CACHE) cache.delete(cache.keys().next().value as string);
  }
  return cache.get(key);
}

/** The tables of the first candidates (a table row's chunk holds that one row), each with all its rows. */
async function tableSources(metadata: MetadataStore, found: Candidate[]): Promise<TableSource[]> {
  const sources = new Map<string, TableSource>();
  for (const c of found.slice(0, TABLE_HEAD)) {
    if (sources.size >= MAX_TABLES) break;
    const ref = c.chunk.elements[0];
    if (!ref || c.chunk.elements.length !== 1) continue;
    const [element] = await metadata.getElements(c.chunk.version_id, [ref.element_id]);
    const table = element?.table;
    if (!table || table.header) continue;
    const key = `${c.chunk.version_id}:${table.index}`;
    if (sources.has(key)) continue;
    const rows = await tableOf(metadata, c.chunk.version_id, table.index);
    if (!rows) continue;
    sources.set(key, {
      versionId: c.chunk.version_id,
      file: c.version.original_name,
      title: titleOf(c.version.original_name),
      elements: rows.rows,
      chunkOf: (id) => rows.chunks.get(id),
      rank: c.hit.rank,
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
  const picks = [
    ...answer.rows.slice(0, TABLE_ROWS_FIRST).map((row) => ({ source, row })),
    ...answer.alternatives.slice(0, TABLE_ALTERNATIVES),
  ];
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
): Promise<{ answer: TableAnswer; retrieved: Retrieved[] } | undefined> {
  const sources = await tableSources(metadata, found);
  const first = found[0];
  // the best candidate is a table row, or a heading of a document whose table is among the candidates
  if (!first || !sources.some((s) => s.rank === first.hit.rank || s.versionId === first.chunk.version_id)) return undefined;
  const weights = new Map(queryTerms.map((q) => [q.term, q.weight]));
  const answer = answerFromTables(question, sources, weights);
  if (!answer) return undefined;
  const source = sources.find((s) => answer.rows[0] && s.elements.includes(answer.rows[0]));
  return { answer, retrieved: reorder(found, answer, source) };
}
