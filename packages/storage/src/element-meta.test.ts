import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Element } from '@pinpoint/core';
import { elementId } from '@pinpoint/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusElements, createVersions } from '../test/corpus-content.js';
import { openDatabase } from './database.js';
import { ElementMetaReader, ElementMetaWriter } from './element-meta.js';
import { decodeElement, rowKey } from './metadata-content.js';
import { SqliteMetadataStore } from './metadata-store.js';

/** Real files of every anchor kind: page (rotated, labelled, Japanese), text (UTF-16, Chinese, HTML with raw maps and cells, JSON pointers, many scripts), record (docx, xlsx, csv). */
const fixtures = [
  'pdf/pdfjs__rotation.pdf',
  'pdf/pdfminer__pagelabels.pdf',
  'pdf/pdfminer__jo.pdf',
  'txt/unstructured__fake-text-utf-16-be.txt',
  'txt/ragflow__textcode.sample.zh.txt',
  'txt/unstructured__UDHR_first_article_all.txt',
  'md/docling__nested.md',
  'markdown/kreuzberg__tables.markdown',
  'html/docling__table_06.html',
  'html/tika__testHTML_charset_utf16le.html',
  'html/kotaemon__dummy.html',
  'json/kreuzberg__complex_nested.json',
  'json/kreuzberg__github_emojis.json',
  'docx/docling__word_tables.docx',
  'xlsx/paperqa__dummy.xlsx',
  'xlsx/unstructured__emoji.xlsx',
  'csv/easyexcel__demo.csv',
  'csv/unstructured__stanley-cups-with-emoji.csv',
];

const elementsOf = async (file: string): Promise<Element[]> => (await corpusElements(file)).elements;

function encodeAll(elements: Element[]): string[] {
  const writer = new ElementMetaWriter();
  return elements.map((e, i) => writer.encode(i, e));
}

/** A reader of one version's metas that counts its reads. */
function readerOf(metas: string[]): { reader: ElementMetaReader; reads: number[][] } {
  const reads: number[][] = [];
  const reader = new ElementMetaReader((positions) => {
    reads.push(positions);
    return new Map(positions.flatMap((p) => (metas[p] === undefined ? [] : [[p, metas[p] as string] as const])));
  });
  return { reader, reads };
}

const decodeAt = (reader: ElementMetaReader, metas: string[], e: Element, i: number): Element =>
  decodeElement(
    { id: rowKey(1, i), element_id: e.element_id === elementId(i) ? null : e.element_id, meta: metas[i] as string, text: e.text },
    reader,
  );

describe('element meta: the compact form of an element row', () => {
  const parsed = new Map<string, Element[]>();
  beforeAll(async () => {
    for (const file of fixtures) parsed.set(file, await elementsOf(file));
  });

  it.each(fixtures)('gives back every element of %s exactly, read in order or each alone', (file) => {
    const elements = parsed.get(file) as Element[];
    expect(elements.length).toBeGreaterThan(0);
    const metas = encodeAll(elements);
    expect(metas.filter((m) => !m.startsWith('['))).toEqual([]);
    const inOrder = readerOf(metas);
    const all = elements.map((e, i) => decodeAt(inOrder.reader, metas, e, i));
    expect(all).toEqual(elements);
    expect(JSON.stringify(all)).toBe(JSON.stringify(elements));
    expect(inOrder.reads).toEqual([]);
    elements.forEach((e, i) => {
      const alone = readerOf(metas);
      const got = decodeAt(alone.reader, metas, e, i);
      expect(JSON.stringify(got)).toBe(JSON.stringify(e));
      expect(alone.reads.length).toBeLessThanOrEqual(1);
    });
  });

  it('covers the three anchor kinds, Chinese and Japanese text, and characters outside the BMP', () => {
    const all = [...parsed.values()].flat();
    expect(new Set(all.map((e) => e.anchor.kind))).toEqual(new Set(['page', 'text', 'record']));
    expect(all.some((e) => /[\u3040-\u30ff]/.test(e.text))).toBe(true);
    expect(all.some((e) => /[\u4e00-\u9fff]/.test(e.text))).toBe(true);
    expect(all.some((e) => /[\u{10000}-\u{10ffff}]/u.test(e.text))).toBe(true);
    expect(all.some((e) => e.anchor.kind === 'page' && e.anchor.page_label !== undefined)).toBe(true);
    expect(all.some((e) => e.anchor.kind === 'text' && e.anchor.json_pointer !== undefined)).toBe(true);
    expect(all.some((e) => e.anchor.kind === 'record' && e.anchor.sheet !== undefined)).toBe(true);
    expect(all.some((e) => e.cells !== undefined && e.raw_map !== undefined)).toBe(true);
  });

  it('stores the sha256 and section path shared by a version once, at the first element holding them', () => {
    const sha = '30c6146de4d0d9b8761cc7751423452073fe3adb3199605e7a3dd0784d532897';
    const element = (i: number, type: Element['type'], path: string[]): Element => ({
      element_id: elementId(i),
      type,
      section_path: path,
      text: 'x',
      anchor: { kind: 'text', artifact: 'original', unit: 'codepoint', start: 34 * i, end: 34 * i + 208, text_sha256: sha },
    });
    const es = [
      element(0, 'title', []),
      element(1, 'paragraph', ['Report 1 (1990)']),
      element(2, 'paragraph', ['Report 1 (1990)']),
    ];
    expect(encodeAll(es)).toEqual([`[0,[],[0,0,208,"${sha}"]]`, `[2,["Report 1 (1990)"],[0,34,242,0]]`, '[2,1,[0,68,276,0]]']);
  });

  it('never takes a shared value from an element stored as JSON', () => {
    const [a, b, c] = parsed.get('md/docling__nested.md') as Element[];
    const es = [{ ...a, anchor: { ...a?.anchor, page: 3 } } as unknown as Element, b as Element, c as Element];
    const metas = encodeAll(es);
    expect(metas.map((m) => m[0])).toEqual(['{', '[', '[']);
    expect(metas[1]).toContain((b as Element & { anchor: { text_sha256: string } }).anchor.text_sha256);
    es.forEach((e, i) => {
      expect(JSON.stringify(decodeAt(readerOf(metas).reader, metas, e, i))).toBe(JSON.stringify(e));
    });
  });

  it('stores as JSON, exactly as before, an element the compact form would not give back', () => {
    const base = parsed.get('md/docling__nested.md')?.[1] as Element;
    const anchor = base.anchor as Extract<Element['anchor'], { kind: 'text' }>;
    const { type, ...afterType } = base;
    const odd: Record<string, unknown>[] = [
      { ...base, anchor: { ...anchor, page: 3 } },
      { ...base, anchor: { ...anchor, kind: 'audio' } },
      { ...base, anchor: Object.fromEntries([['end', anchor.end], ...Object.entries(anchor)]) },
      { ...base, anchor: { ...anchor, text_sha256: 7 } },
      { ...afterType, type },
      { ...base, level: null },
      { ...base, section_path: 2 },
      { ...base, spans: [{ start: 0, end: 1, box: [0, 0, 1, 1], page: 2 }] },
      { ...base, table: { row: 0, index: 0, header: false } },
    ];
    const writer = new ElementMetaWriter();
    writer.encode(0, base);
    writer.encode(1, base);
    for (const e of odd) {
      const meta = writer.encode(2, e as Element);
      const { element_id: _, text: __, ...rest } = e;
      expect(meta).toBe(JSON.stringify(rest));
    }
    // an element type not listed is kept as a string, still compact
    const caption = { ...base, type: 'caption' } as unknown as Element;
    const fresh = new ElementMetaWriter();
    const metas = [fresh.encode(0, base), fresh.encode(1, caption)];
    expect(metas[1]).toMatch(/^\["caption",0,/);
    expect(decodeAt(readerOf(metas).reader, metas, caption, 1)).toEqual(caption);
  });
});

describe('element rows through the store', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-element-meta-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const versions = async (store: SqliteMetadataStore, names: string[]): Promise<string[]> =>
    (await createVersions(store, names)).map((v) => v.version);

  it('reads a store written before the compact form, and one written now, the same, whole or element by element', async () => {
    const files = ['pdf/pdfminer__pagelabels.pdf', 'html/kotaemon__dummy.html', 'xlsx/paperqa__dummy.xlsx'];
    const elements = await Promise.all(files.map(elementsOf));
    const path = join(dir, 'meta.db');
    let store = new SqliteMetadataStore(path);
    const [before, now] = [
      await versions(store, files),
      await versions(
        store,
        files.map((f) => `new-${f}`),
      ),
    ];
    for (const [i, id] of now.entries()) await store.replaceVersionContent(id, elements[i] as Element[], []);
    await store.close();
    // the rows the previous release wrote: the element's fields but id and text as one JSON object
    const db = openDatabase(path);
    const seqOf = db.prepare('SELECT seq FROM versions WHERE version_id = ?');
    const insert = db.prepare('INSERT INTO version_elements (id, element_id, meta, text) VALUES (?, NULL, ?, ?)');
    before.forEach((id, v) => {
      const { seq } = seqOf.get(id) as { seq: number };
      (elements[v] as Element[]).forEach((e, i) => {
        const { element_id: _, text, ...rest } = e;
        insert.run(rowKey(seq, i), JSON.stringify(rest), text);
      });
    });
    const bytes = (ids: string[]) =>
      ids.map((id) => {
        const { seq } = seqOf.get(id) as { seq: number };
        const r = db
          .prepare('SELECT SUM(length(CAST(meta AS BLOB))) AS n FROM version_elements WHERE id >= ? AND id < ?')
          .get(rowKey(seq, 0), rowKey(seq + 1, 0)) as { n: number };
        return r.n;
      });
    const sizes = { before: bytes(before), now: bytes(now) };
    db.close();
    for (const [i, n] of sizes.now.entries()) expect(n).toBeLessThan((sizes.before[i] as number) * 0.6);

    store = new SqliteMetadataStore(path);
    for (const [v, es] of elements.entries()) {
      for (const id of [before[v] as string, now[v] as string]) {
        expect(JSON.stringify(await store.getElements(id))).toBe(JSON.stringify(es));
        for (const e of es) expect(await store.getElements(id, [e.element_id])).toEqual([e]);
        const picked = [es[es.length - 1], es[0], es[Math.floor(es.length / 2)]].map((e) => (e as Element).element_id);
        expect(await store.getElements(id, picked)).toEqual(es.filter((e) => picked.includes(e.element_id)));
      }
    }
    await store.close();
  });
});
