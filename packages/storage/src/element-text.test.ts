import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunkElements } from '@pinpoint/chunker';
import type { Chunk, Element } from '@pinpoint/core';
import { chunkSchema } from '@pinpoint/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusElements, createVersions } from '../test/corpus-content.js';
import { openDatabase } from './database.js';
import { decodeElementText, encodeElementText } from './element-text.js';
import { rowKey } from './metadata-content.js';
import { SqliteMetadataStore } from './metadata-store.js';

/** A seeded generator of strings over the given codepoint ranges (no lone surrogates: SQLite TEXT could not hold them either). */
function strings(seed: number, ranges: [number, number][], count: number): string[] {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = Math.floor(next() ** 2 * 2_000);
    const cps: number[] = [];
    for (let j = 0; j < length; j++) {
      const [lo, hi] = ranges[Math.floor(next() * ranges.length)] as [number, number];
      cps.push(lo + Math.floor(next() * (hi - lo + 1)));
    }
    out.push(String.fromCodePoint(...cps));
  }
  return out;
}

describe('element text: TEXT or Brotli bytes', () => {
  it('gives back every string exactly: ASCII, accents, CJK, astral characters, controls, any length', () => {
    const ranges: [number, number][][] = [
      [[0x20, 0x7e]],
      [
        [0, 0x7f],
        [0xa0, 0x24f],
      ],
      [
        [0x3040, 0x30ff],
        [0x4e00, 0x9fff],
        [0x3000, 0x303f],
      ],
      [
        [0x1f300, 0x1faff],
        [0x20000, 0x2a6df],
        [0x41, 0x5a],
      ],
      [
        [0, 0xd7ff],
        [0xe000, 0x10ffff],
      ],
    ];
    let packed = 0;
    for (const [i, r] of ranges.entries())
      for (const text of strings(i + 1, r, 60)) {
        const stored = encodeElementText(text);
        if (typeof stored !== 'string') packed++;
        expect(decodeElementText(stored)).toBe(text);
      }
    // words of a small alphabet repeat: some of these must have been compressed
    expect(packed).toBeGreaterThan(0);
  });

  it('keeps texts under 128 bytes as TEXT, and compresses prose', () => {
    expect(encodeElementText('')).toBe('');
    const short = 'Revenue rose to 12 % in the year, driven by the services segment; costs fell by 3 %. 売上高は増加した。';
    expect(Buffer.byteLength(short)).toBeLessThan(128);
    expect(encodeElementText(short)).toBe(short);
    const prose = 'The company reported revenue of $1.2 billion for the fiscal year, an increase of 12 percent. '.repeat(3);
    const stored = encodeElementText(prose);
    expect(stored).toBeInstanceOf(Uint8Array);
    expect((stored as Uint8Array).length).toBeLessThan(Buffer.byteLength(prose) / 2);
    expect(decodeElementText(stored)).toBe(prose);
  });
});

/** Real text of three scripts: English prose, Chinese prose, a Japanese PDF, a sheet. */
const fixtures = [
  'txt/unstructured__UDHR_first_article_all.txt',
  'txt/ragflow__textcode.sample.zh.txt',
  'pdf/pdfminer__jo.pdf',
  'md/docling__wiki.md',
  'xlsx/paperqa__dummy.xlsx',
];

describe('element texts through the store', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-element-text-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stores real text in a quarter less, and reads elements and the chunks cut from them back identical, beside rows of TEXT', async () => {
    const path = join(dir, 'meta.db');
    let store = new SqliteMetadataStore(path);
    const versions = await createVersions(store, fixtures);
    const content: { elements: Element[]; chunks: Chunk[] }[] = [];
    for (const [i, file] of fixtures.entries()) {
      const v = versions[i] as { version: string; document: string; collection: string };
      const { fileName, elements } = await corpusElements(file);
      const chunks = chunkElements(elements, {
        versionId: v.version,
        documentId: v.document,
        collectionId: v.collection,
        title: fileName,
      }).map((c) => chunkSchema.parse(c));
      content.push({ elements, chunks });
      await store.replaceVersionContent(v.version, elements, chunks);
    }
    await store.close();

    const db = openDatabase(path);
    const forms = db
      .prepare(
        'SELECT typeof(text) AS form, COUNT(*) AS n, SUM(length(CAST(text AS BLOB))) AS bytes FROM version_elements GROUP BY 1',
      )
      .all() as {
      form: string;
      n: number;
      bytes: number;
    }[];
    const raw = content.reduce((n, c) => n + c.elements.reduce((m, e) => m + Buffer.byteLength(e.text), 0), 0);
    const stored = forms.reduce((n, f) => n + f.bytes, 0);
    expect(forms.map((f) => f.form).sort()).toEqual(['blob', 'text']);
    expect(stored).toBeLessThan(raw * 0.75);
    // every other element of the first three versions rewritten as a release before this one wrote it: TEXT
    const seqOf = db.prepare('SELECT seq FROM versions WHERE version_id = ?');
    const rewrite = db.prepare('UPDATE version_elements SET text = ? WHERE id = ?');
    let rewritten = 0;
    for (const [i, v] of versions.slice(0, 3).entries()) {
      const { seq } = seqOf.get(v.version) as { seq: number };
      (content[i] as { elements: Element[] }).elements.forEach((e, j) => {
        if (j % 2 === 0) rewritten += rewrite.run(e.text, rowKey(seq, j)).changes;
      });
    }
    db.close();
    expect(rewritten).toBeGreaterThan(10);

    store = new SqliteMetadataStore(path);
    for (const [i, v] of versions.entries()) {
      const { elements, chunks } = content[i] as { elements: Element[]; chunks: Chunk[] };
      expect(JSON.stringify(await store.getElements(v.version))).toBe(JSON.stringify(elements));
      for (const e of elements) expect(await store.getElements(v.version, [e.element_id])).toEqual([e]);
      expect(JSON.stringify(await store.listChunks(v.version))).toBe(JSON.stringify(chunks));
      for (const c of chunks) expect(JSON.stringify(await store.getChunks([c.chunk_id]))).toBe(JSON.stringify([c]));
    }
    await store.close();
  });
});
