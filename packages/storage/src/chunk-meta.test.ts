import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunkElements } from '@pinpoint/chunker';
import type { Chunk, Element } from '@pinpoint/core';
import { chunkId, chunkSchema } from '@pinpoint/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusElements, createVersions } from '../test/corpus-content.js';
import type { ChunkMetaColumns, ChunkMetaWithPrefix } from './chunk-meta.js';
import { ChunkMetaReader, ChunkMetaWriter } from './chunk-meta.js';
import { openDatabase } from './database.js';
import { rowKey } from './metadata-content.js';
import { SqliteMetadataStore } from './metadata-store.js';

/** Real files of every anchor kind and chunk shape: pages, sheets, table rows, long Chinese paragraphs cut in sentences, headings. */
const fixtures = [
  'pdf/pdfminer__pagelabels.pdf',
  'pdf/pdfminer__jo.pdf',
  'txt/ragflow__textcode.sample.zh.txt',
  'txt/unstructured__UDHR_first_article_all.txt',
  'md/docling__nested.md',
  'markdown/kreuzberg__tables.markdown',
  'html/docling__table_06.html',
  'html/kotaemon__dummy.html',
  'json/kreuzberg__complex_nested.json',
  'docx/docling__word_tables.docx',
  'xlsx/paperqa__dummy.xlsx',
  'xlsx/unstructured__emoji.xlsx',
  'csv/unstructured__stanley-cups-with-emoji.csv',
];

const ids = { version: 'ver_a', document: 'doc_a', collection: 'col_a' };

/** A file's elements and chunks as ingestion stores them: parsed, chunked as the engine does, validated by the store. */
async function contentOf(file: string, v = ids): Promise<{ elements: Element[]; chunks: Chunk[] }> {
  const { fileName, elements } = await corpusElements(file);
  const chunks = chunkElements(elements, {
    versionId: v.version,
    documentId: v.document,
    collectionId: v.collection,
    title: fileName.replace(/\.[^.]+$/, ''),
  });
  return { elements, chunks: chunks.map((c) => chunkSchema.parse(c)) };
}

/** A chunk's meta as rows written before the compact form hold it, with its retrieval prefix. */
function metaOf(c: Chunk): ChunkMetaWithPrefix {
  const prefixed = c.retrieval_text.endsWith(c.text);
  const meta = { s: c.chunk_set_id, e: c.elements.map((r) => [r.element_id, r.start, r.end]), p: c.section_path };
  return {
    meta: {
      ...meta,
      ...(c.page_index === undefined ? {} : { pi: c.page_index }),
      ...(c.sheet === undefined ? {} : { sh: c.sheet }),
    },
    prefix: prefixed ? c.retrieval_text.slice(0, c.retrieval_text.length - c.text.length) : null,
  } as ChunkMetaWithPrefix;
}

function encodeAll(metas: ChunkMetaWithPrefix[]): ChunkMetaColumns[] {
  const writer = new ChunkMetaWriter();
  return metas.map((m, i) => {
    const row = writer.encode(m);
    writer.remember(i, row);
    return row;
  });
}

/** A reader of one version's chunk rows that counts its reads. */
function readerOf(rows: ChunkMetaColumns[]): { reader: ChunkMetaReader; reads: number[][] } {
  const reads: number[][] = [];
  const reader = new ChunkMetaReader((ordinals) => {
    reads.push(ordinals);
    return new Map(ordinals.flatMap((o) => (rows[o] ? [[o, rows[o] as ChunkMetaColumns] as const] : [])));
  });
  return { reader, reads };
}

describe('chunk meta: the compact form of a chunk row', () => {
  const parsed = new Map<string, Chunk[]>();
  beforeAll(async () => {
    for (const file of fixtures) parsed.set(file, (await contentOf(file)).chunks);
  });

  it.each(fixtures)('gives back the meta of every chunk of %s exactly, read in order or each alone', (file) => {
    const metas = (parsed.get(file) as Chunk[]).map(metaOf);
    expect(metas.length).toBeGreaterThan(0);
    const rows = encodeAll(metas);
    expect(rows.filter((r) => !r.meta.startsWith('['))).toEqual([]);
    const inOrder = readerOf(rows);
    const all = rows.map((r, i) => inOrder.reader.decode(i, r));
    expect(JSON.stringify(all)).toBe(JSON.stringify(metas));
    expect(inOrder.reads).toEqual([]);
    rows.forEach((r, i) => {
      const alone = readerOf(rows);
      expect(JSON.stringify(alone.reader.decode(i, r))).toBe(JSON.stringify(metas[i]));
      expect(alone.reads.length).toBeLessThanOrEqual(1);
    });
  });

  it('covers pages, sheets, several sections, chunks of many elements, retrieval texts without the text, Chinese', () => {
    const all = [...parsed.values()].flat();
    expect(all.some((c) => c.page_index !== undefined)).toBe(true);
    expect(all.some((c) => c.sheet !== undefined)).toBe(true);
    expect(all.some((c) => c.elements.length > 3)).toBe(true);
    expect(all.some((c) => !c.retrieval_text.endsWith(c.text))).toBe(true);
    expect(all.some((c) => /[\u4e00-\u9fff]/.test(c.text))).toBe(true);
    expect([...parsed.values()].some((cs) => new Set(cs.map((c) => JSON.stringify(c.section_path))).size > 2)).toBe(true);
  });

  it('stores the chunk set, section path and retrieval prefix once, at the first chunk holding them', () => {
    const chunk = (elements: [string, number, number][], p: string[], prefix: string | null): ChunkMetaWithPrefix => ({
      meta: { s: 'c1:700/70', e: elements, p },
      prefix,
    });
    const rows = encodeAll([
      chunk([['e000000', 0, 14]], [], 'report-0000001\n'),
      chunk(
        [
          ['e000001', 0, 15],
          ['e000002', 0, 15],
          ['e000003', 0, 208],
        ],
        ['Report 1 (1990)'],
        'report-0000001\nReport 1 (1990)\n',
      ),
      chunk(
        [
          ['e000003', 190, 208],
          ['e000005', 0, 4],
        ],
        ['Report 1 (1990)'],
        'report-0000001\nReport 1 (1990)\n',
      ),
      chunk([['odd', 0, 1]], ['Report 1 (1990)'], null),
    ]);
    expect(rows).toEqual([
      { meta: '["c1:700/70",[0,0,14],[]]', retrieval_prefix: 'report-0000001\n' },
      { meta: '[0,[1,0,15,0,15,0,208],["Report 1 (1990)"]]', retrieval_prefix: 'report-0000001\nReport 1 (1990)\n' },
      { meta: '[0,[[3,190,208],[5,0,4]],1,1]', retrieval_prefix: null },
      { meta: '[0,[["odd",0,1]],1]', retrieval_prefix: null },
    ]);
  });

  it('never reads a shared value from a chunk stored as JSON', () => {
    const rows = encodeAll([metaOf((parsed.get('md/docling__nested.md') as Chunk[])[0] as Chunk)]);
    rows.push({ meta: '[0,[0,0,1],[]]', retrieval_prefix: null });
    rows[0] = { meta: '{"s":"c1:700/70","e":[],"p":[]}', retrieval_prefix: null };
    expect(() => readerOf(rows).reader.decode(1, rows[1] as ChunkMetaColumns)).toThrow(
      expect.objectContaining({ code: 'PP_INTERNAL' }),
    );
  });
});

describe('chunk rows through the store', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-chunk-meta-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads chunks written before the compact form and chunks written now the same, whole or chunk by chunk', async () => {
    const path = join(dir, 'meta.db');
    let store = new SqliteMetadataStore(path);
    const before = await createVersions(store, fixtures);
    const now = await createVersions(
      store,
      fixtures.map((f) => `new-${f}`),
    );
    const content = {
      before: await Promise.all(fixtures.map((f, i) => contentOf(f, before[i]))),
      now: await Promise.all(fixtures.map((f, i) => contentOf(f, now[i]))),
    };
    for (const [i, v] of now.entries()) {
      const { elements, chunks } = content.now[i] as { elements: Element[]; chunks: Chunk[] };
      await store.replaceVersionContent(v.version, elements, chunks);
    }
    for (const [i, v] of before.entries()) await store.replaceVersionContent(v.version, content.before[i]?.elements ?? [], []);
    await store.close();
    // the chunk rows the previous release wrote: a JSON object with short keys, the text left out when its element ranges give it
    const db = openDatabase(path);
    const seqOf = db.prepare('SELECT seq FROM versions WHERE version_id = ?');
    const insert = db.prepare(
      'INSERT INTO version_chunks (id, chunk_id, meta, text, retrieval_prefix, retrieval_text) VALUES (?, NULL, ?, ?, ?, ?)',
    );
    before.forEach((v, i) => {
      const { seq } = seqOf.get(v.version) as { seq: number };
      const { elements, chunks } = content.before[i] as { elements: Element[]; chunks: Chunk[] };
      const byId = new Map(elements.map((e) => [e.element_id, [...e.text]]));
      for (const c of chunks) {
        const { meta, prefix } = metaOf(c);
        const fromElements = c.elements.map((r) => byId.get(r.element_id)?.slice(r.start, r.end).join('')).join('\n');
        const text = fromElements === c.text ? null : c.text;
        insert.run(rowKey(seq, c.ordinal), JSON.stringify(meta), text, prefix, prefix === null ? c.retrieval_text : null);
      }
    });
    const forms = db.prepare("SELECT SUM(meta LIKE '{%') AS json, SUM(meta LIKE '[%') AS compact FROM version_chunks").get();
    const bytes = db.prepare(
      'SELECT SUM(length(meta) + ifnull(length(retrieval_prefix), 0)) AS n FROM version_chunks WHERE meta LIKE ?',
    );
    const sizes = { before: (bytes.get('{%') as { n: number }).n, now: (bytes.get('[%') as { n: number }).n };
    db.close();
    const total = content.now.reduce((n, c) => n + c.chunks.length, 0);
    expect(total).toBeGreaterThan(100);
    expect(forms).toEqual({ json: total, compact: total });
    expect(sizes.now).toBeLessThan(sizes.before * 0.6);

    store = new SqliteMetadataStore(path);
    for (const [i, v] of [...before, ...now].entries()) {
      const { chunks } = [...content.before, ...content.now][i] as { chunks: Chunk[] };
      expect(JSON.stringify(await store.listChunks(v.version))).toBe(JSON.stringify(chunks));
      for (const c of chunks) expect(JSON.stringify(await store.getChunks([c.chunk_id]))).toBe(JSON.stringify([c]));
      const picked = [chunks.at(-1), chunks[0], chunkId(v.version, 99_999)].map((c) => (typeof c === 'string' ? c : c?.chunk_id));
      expect(await store.getChunks(picked as string[])).toEqual([chunks.at(-1), chunks[0]]);
    }
    // versions of both forms read together, in the order asked
    const mixed = [content.now[0]?.chunks.at(-1), content.before[0]?.chunks.at(-1), content.now[1]?.chunks[0]] as Chunk[];
    expect(await store.getChunks(mixed.map((c) => c.chunk_id))).toEqual(mixed);
    await store.close();
  });
});
