import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Chunk, Element, Recipe } from '@pinpoint/core';
import { chunkId, chunkSchema, elementId, elementSchema } from '@pinpoint/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from './database.js';
import { metadataMigrations } from './metadata-schema.js';
import { SqliteMetadataStore } from './metadata-store.js';

const recipe: Recipe = { parser: 'txt@1', chunker: 'c@1', analyzer: 'a@1', options: {} };
const sha = (c: string): string => c.repeat(64);

/** Elements as the text parser gives them, one with an astral character before the range a chunk cites. */
function elements(): Element[] {
  const texts = ['Annual report', 'Revenue 𠮷 rose to 12 %. Costs fell.', '売上高は前年比12％増加した。', 'Row | 12'];
  return texts.map((text, i) => ({
    element_id: elementId(i),
    type: i === 0 ? 'heading' : i === 3 ? 'table' : 'paragraph',
    ...(i === 0 ? { level: 1 } : {}),
    section_path: i === 0 ? [] : ['Annual report'],
    text,
    anchor: {
      kind: 'text',
      artifact: 'original',
      unit: 'codepoint',
      start: i * 40,
      end: i * 40 + [...text].length,
      text_sha256: sha('a'),
    },
    ...(i === 3
      ? { cells: [{ ref: 'A1', col: 0, start: 0, end: 3 }], table: { index: 0, row: 0, header: false }, confidence: 88 }
      : {}),
  })) as Element[];
}

/** Chunks of every kind the store keeps whole or derives: text from element ranges or not, retrieval text with a prefix or not. */
function chunks(versionId: string, documentId: string, collectionId: string): Chunk[] {
  const base = { chunk_set_id: 'c1:700/70', version_id: versionId, document_id: documentId, collection_id: collectionId };
  return [
    {
      ...base,
      chunk_id: chunkId(versionId, 0),
      ordinal: 0,
      elements: [
        { element_id: elementId(0), start: 0, end: 13 },
        { element_id: elementId(1), start: 2, end: 23 },
      ],
      text: 'Annual report\nvenue 𠮷 rose to 12 %.',
      retrieval_text: 'report\nAnnual report\nAnnual report\nvenue 𠮷 rose to 12 %.',
      page_index: 3,
      section_path: [],
    },
    {
      ...base,
      chunk_id: chunkId(versionId, 1),
      ordinal: 1,
      elements: [{ element_id: elementId(2), start: 0, end: 15 }],
      // not what the range gives: kept as written
      text: '売上高は前年比12％増加した',
      retrieval_text: 'report › Annual report › 売上高は前年比12％増加した',
      section_path: ['Annual report'],
    },
    {
      ...base,
      chunk_id: chunkId(versionId, 2),
      ordinal: 2,
      elements: [{ element_id: elementId(3), start: 0, end: 8 }],
      text: 'Row | 12',
      // a table row's retrieval text does not end with its text
      retrieval_text: 'report\nRow: 12',
      sheet: 'Sheet1',
      section_path: ['Annual report'],
    },
    {
      ...base,
      // an id of another form, and a document id that is not the version's
      chunk_id: `custom-${versionId}`,
      document_id: 'doc_elsewhere',
      ordinal: 7,
      elements: [{ element_id: 'missing', start: 0, end: 1 }],
      text: 'x',
      retrieval_text: 'x',
      section_path: [],
    },
  ];
}

describe('SqliteMetadataStore content rows', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-meta-content-'));
    path = join(dir, 'meta.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function seed(store: SqliteMetadataStore, name = 'report.txt') {
    const col = await store.createCollection('c');
    const doc = await store.findOrCreateDocument(col.collection_id, name);
    const { version } = await store.createVersion({
      document_id: doc.document_id,
      collection_id: col.collection_id,
      source_sha256: sha(name.slice(0, 1)),
      original_name: name,
      declared_mime: null,
      size: 1,
      recipe,
    });
    return { col, doc, version };
  }

  it('gives back every element and chunk exactly as written, keys in the schema order', async () => {
    const store = new SqliteMetadataStore(path);
    const { col, doc, version } = await seed(store);
    const es = [...elements(), { ...elements()[1], element_id: 'odd-id' } as Element];
    const cs = chunks(version.version_id, doc.document_id, col.collection_id);
    await store.replaceVersionContent(version.version_id, es, cs);
    const asParsed = {
      elements: es.map((e) => elementSchema.parse(e)),
      chunks: cs.map((c) => chunkSchema.parse(c)),
    };
    const got = { elements: await store.getElements(version.version_id), chunks: await store.listChunks(version.version_id) };
    expect(JSON.stringify(got)).toBe(JSON.stringify(asParsed));
    expect(await store.getElements(version.version_id, ['odd-id', elementId(2), 'nope'])).toEqual([
      asParsed.elements[2],
      asParsed.elements[4],
    ]);
    expect(
      await store.getChunks([`custom-${version.version_id}`, chunkId(version.version_id, 1), chunkId(version.version_id, 5)]),
    ).toEqual([asParsed.chunks[3], asParsed.chunks[1]]);
    await store.close();
    // what was not written: the derivable texts and ids
    const db = openDatabase(path);
    const rows = db
      .prepare(
        'SELECT chunk_id, text IS NULL AS derived, retrieval_prefix IS NOT NULL AS prefixed FROM version_chunks ORDER BY id',
      )
      .all();
    const ids = db.prepare('SELECT element_id FROM version_elements ORDER BY id').all();
    db.close();
    expect(rows).toEqual([
      { chunk_id: null, derived: 1, prefixed: 1 },
      { chunk_id: null, derived: 0, prefixed: 1 },
      { chunk_id: null, derived: 1, prefixed: 0 },
      { chunk_id: `custom-${version.version_id}`, derived: 0, prefixed: 1 },
    ]);
    expect(ids.map((r) => (r as { element_id: string | null }).element_id)).toEqual([null, null, null, null, 'odd-id']);
  });

  it('keeps chunk ids unique across versions, whatever their form', async () => {
    const store = new SqliteMetadataStore(path);
    const a = await seed(store, 'a.txt');
    const b = await seed(store, 'b.txt');
    const cs = chunks(a.version.version_id, a.doc.document_id, a.col.collection_id);
    await store.replaceVersionContent(a.version.version_id, elements(), cs);
    const inB = (c: Chunk): Chunk => ({ ...c, version_id: b.version.version_id });
    // the kept id of a's fourth chunk, and the derived id of a's first, written again under b
    await expect(store.replaceVersionContent(b.version.version_id, elements(), [inB(cs[3] as Chunk)])).rejects.toMatchObject({
      code: 'PP_CONFLICT',
    });
    await expect(
      store.replaceVersionContent(b.version.version_id, elements(), [{ ...inB(cs[0] as Chunk), ordinal: 4 }]),
    ).rejects.toMatchObject({ code: 'PP_CONFLICT' });
    expect(await store.listChunks(b.version.version_id)).toEqual([]);
    // re-writing a's own content replaces it
    await store.replaceVersionContent(a.version.version_id, elements(), cs);
    expect(await store.listChunks(a.version.version_id)).toHaveLength(4);
    await store.close();
  });

  it('moves the content of a data folder of schema 2 into the compact rows', async () => {
    const db = openDatabase(path);
    migrate(db, 'metadata', metadataMigrations.slice(0, 2));
    const t = '2026-01-01T00:00:00.000Z';
    db.prepare("INSERT INTO collections VALUES ('col_1', 'c', ?)").run(t);
    db.prepare("INSERT INTO documents VALUES ('doc_1', 'col_1', 'a.txt', ?)").run(t);
    const version = (id: string, n: number) =>
      db
        .prepare(
          `INSERT INTO versions (version_id, document_id, collection_id, number, source_sha256, original_name, size, recipe, state, created_at, updated_at)
           VALUES (?, 'doc_1', 'col_1', ?, ?, 'a.txt', 1, ?, 'ready', ?, ?)`,
        )
        .run(id, n, sha(String(n)), JSON.stringify(recipe), t, t);
    version('ver_1', 1);
    version('ver_2', 2);
    const written = { ver_1: chunks('ver_1', 'doc_1', 'col_1'), ver_2: chunks('ver_2', 'doc_1', 'col_1').slice(0, 2) };
    for (const [v, cs] of Object.entries(written)) {
      elements().forEach((e, i) => {
        db.prepare('INSERT INTO elements VALUES (?, ?, ?, ?)').run(v, e.element_id, i, JSON.stringify(elementSchema.parse(e)));
      });
      for (const c of cs)
        db.prepare('INSERT INTO chunks VALUES (?, ?, ?, ?)').run(c.chunk_id, v, c.ordinal, JSON.stringify(chunkSchema.parse(c)));
    }
    db.close();

    const store = new SqliteMetadataStore(path);
    for (const [v, cs] of Object.entries(written)) {
      expect(await store.listChunks(v)).toEqual(cs.map((c) => chunkSchema.parse(c)));
      expect(await store.getElements(v)).toEqual(elements().map((e) => elementSchema.parse(e)));
    }
    expect(await store.getChunks(['custom-ver_1', chunkId('ver_2', 1)])).toEqual([written.ver_1[3], written.ver_2[1]]);
    // the next version gets the next seq: its rows never mix with the moved ones
    const next = await store.createVersion({
      document_id: 'doc_1',
      collection_id: 'col_1',
      source_sha256: sha('3'),
      original_name: 'a.txt',
      declared_mime: null,
      size: 1,
      recipe,
    });
    await store.replaceVersionContent(next.version.version_id, elements().slice(0, 1), []);
    expect(await store.getElements('ver_2')).toHaveLength(4);
    expect((await store.deleteDocument('doc_1'))?.version_ids).toEqual(['ver_1', 'ver_2', next.version.version_id]);
    expect(await store.listChunks('ver_1')).toEqual([]);
    await store.close();
    const after = openDatabase(path);
    const tables = after.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('elements', 'chunks')").all();
    const left = after
      .prepare('SELECT (SELECT COUNT(*) FROM version_elements) + (SELECT COUNT(*) FROM version_chunks) AS n')
      .get();
    after.close();
    expect(tables).toEqual([]);
    expect(left).toEqual({ n: 0 });
  });
});
