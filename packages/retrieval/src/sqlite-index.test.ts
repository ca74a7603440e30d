import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '@pinpoint/analysis';
import type { IndexedChunk } from '@pinpoint/core';
import { seededRandom } from '@pinpoint/testing';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { compareBinary } from './merge.js';
import { toPackedRelease, toPreviousRelease } from './previous-release.js';
import { searchLexical } from './search.js';
import { openLexicalIndex } from './sqlite-index.js';

const chunk = (id: string, text: string, extra: Partial<IndexedChunk> = {}): IndexedChunk => ({
  chunk_id: id,
  version_id: 'v1',
  document_id: 'd1',
  collection_id: 'c1',
  retrieval_text: text,
  ...extra,
});

/** The segments that have a table of lists, ascending. */
const segTables = (db: Database.Database) =>
  (
    db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'lex_seg_[0-9]*' AND name NOT GLOB '*_parts'")
      .pluck()
      .all() as string[]
  )
    .map((name) => Number(name.slice('lex_seg_'.length)))
    .sort((a, b) => a - b);

/** The segments that have a table of short lists, ascending (each of them has its table of lists too). */
const shortTables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'lex_short_[0-9]*'").pluck().all() as string[])
    .map((name) => Number(name.slice('lex_short_'.length)))
    .sort((a, b) => a - b);

const dir = mkdtempSync(join(tmpdir(), 'pp-lex-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SqliteLexicalIndex', () => {
  it('ranks the chunk that matches the rare query terms first', async () => {
    const index = openLexicalIndex(':memory:');
    await index.upsert([
      chunk('a', 'The steam engine uses cylinders and pistons.'),
      chunk('b', 'Olympic class ocean liners used triple expansion steam engines.'),
      chunk('c', 'Harvard University is in Cambridge.'),
    ]);
    const { hits } = await searchLexical(index, 'What class of ships were large passenger liners?', { k: 3 });
    expect(hits[0]?.chunk_id).toBe('b');
    expect(hits[0]?.stages.lexical.rank).toBe(1);
    expect(hits.map((h) => h.chunk_id)).not.toContain('c');
    await index.close();
  });

  it('finds Traditional Chinese chunks with a Simplified query', async () => {
    const index = openLexicalIndex(':memory:');
    await index.upsert([chunk('a', '負責管理馬祖國家風景區的單位為交通部觀光局。'), chunk('b', '網球比賽的主裁判坐在高椅上。')]);
    expect((await index.search('马祖国家风景区', { k: 1 }))[0]?.chunk_id).toBe('a');
    await index.close();
  });

  it('filters by collection, document, version and page', async () => {
    const index = openLexicalIndex(':memory:');
    await index.upsert([
      chunk('a', 'refund policy for taxis', { page_index: 0 }),
      chunk('b', 'refund policy for taxis', { page_index: 3, version_id: 'v2', document_id: 'd2' }),
      chunk('c', 'refund policy for taxis', { collection_id: 'c2' }),
    ]);
    const ids = async (filter: object): Promise<string[]> =>
      (await index.search('taxi refund', { k: 5, filter })).map((h) => h.chunk_id).sort();
    expect(await ids({ collectionIds: ['c1'] })).toEqual(['a', 'b']);
    expect(await ids({ documentIds: ['d2'] })).toEqual(['b']);
    expect(await ids({ versionIds: ['v1'] })).toEqual(['a', 'c']);
    expect(await ids({ pageIndexes: [3] })).toEqual(['b']);
    await index.close();
  });

  it('upserts by chunk id, deletes a version and persists across reopen', async () => {
    const path = join(dir, 'lex.sqlite');
    const index = openLexicalIndex(path);
    await index.upsert([chunk('a', 'alpha beta'), chunk('b', 'gamma delta', { version_id: 'v2' })]);
    await index.upsert([chunk('a', 'epsilon zeta')]);
    expect(await index.search('alpha', { k: 5 })).toEqual([]);
    await index.close();
    const reopened = openLexicalIndex(path);
    expect((await reopened.search('epsilon', { k: 5 })).map((h) => h.chunk_id)).toEqual(['a']);
    await reopened.deleteVersion('v2');
    expect(await reopened.search('gamma', { k: 5 })).toEqual([]);
    expect((await reopened.search('zeta', { k: 5 })).map((h) => h.chunk_id)).toEqual(['a']);
    await reopened.close();
  });

  it('gives the same hits from segments, the tail and after reopening, and forgets deleted chunks in segments', async () => {
    const words = ['harbour', 'lighthouse', 'ferry', 'tide', 'pier', 'crane', 'cargo', 'storm', 'anchor', 'quay'];
    const chunks = Array.from({ length: 60 }, (_, i) =>
      chunk(`c${i}`, Array.from({ length: 3 + (i % 5) }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' '), {
        version_id: `v${i % 6}`,
        page_index: i % 3,
      }),
    );
    const path = join(dir, 'segments.sqlite');
    const segmented = openLexicalIndex(path, { segmentChunks: 8 });
    const single = openLexicalIndex(':memory:');
    for (let i = 0; i < chunks.length; i += 5) {
      await segmented.upsert(chunks.slice(i, i + 5));
      await single.upsert(chunks.slice(i, i + 5));
    }
    await segmented.deleteVersion('v2');
    await single.deleteVersion('v2');
    const queries = ['harbour ferry', 'storm anchor quay', 'tide', 'crane cargo pier lighthouse'];
    const filter = { versionIds: ['v0', 'v1', 'v2', 'v3'], pageIndexes: [0, 1] };
    const run = async (index: typeof single) =>
      Promise.all(queries.flatMap((q) => [index.search(q, { k: 7 }), index.search(q, { k: 50, filter }), index.queryTerms(q)]));
    const expected = await run(single);
    expect(expected[0]?.length).toBe(7);
    expect(await run(segmented)).toEqual(expected);
    await segmented.close();
    const reopened = openLexicalIndex(path, { segmentChunks: 8 });
    expect(await run(reopened)).toEqual(expected);
    await reopened.close();
    await single.close();
  });

  it('builds the same index when upserted chunks are analysed in a thread, and waits for them at close', async () => {
    const texts = [
      'The harbour ferry leaves at dawn; the lighthouse keeper logs the tide.',
      '東京の港では、フェリーが夜明けに出航する。灯台守は潮を記録する。',
      '港口的渡轮在黎明时分出发，燈塔看守記錄潮汐。',
      'Cargo cranes on the quay stood idle during the storm of 1987.',
    ];
    const chunks = Array.from({ length: 40 }, (_, i) =>
      chunk(`t${i}`, `${texts[i % 4]} ${texts[(i * 3 + 1) % 4]} #${i}`, { version_id: `v${i % 5}`, page_index: i % 2 }),
    );
    const path = join(dir, 'threaded.sqlite');
    const threaded = openLexicalIndex(path, { segmentChunks: 16, analysisThread: true });
    const local = openLexicalIndex(':memory:', { segmentChunks: 16 });
    for (let i = 0; i < chunks.length; i += 8) {
      void threaded.upsert(chunks.slice(i, i + 8));
      await local.upsert(chunks.slice(i, i + 8));
    }
    await threaded.close();
    const reopened = openLexicalIndex(path, { segmentChunks: 16 });
    const queries = ['harbour ferry tide', 'フェリー 灯台', '渡轮 潮汐', 'storm 1987 cranes'];
    const run = async (index: typeof local) =>
      Promise.all(queries.flatMap((q) => [index.search(q, { k: 10 }), index.queryTerms(q)]));
    const expected = await run(local);
    expect(expected[0]?.length).toBe(10);
    expect(await run(reopened)).toEqual(expected);
    await reopened.close();
    await local.close();
  });

  it.each([false, true])(
    'merges a collection’s neighbouring segments tier by tier, dropping deleted chunks, with the hits of one unsegmented index (merge thread: %s)',
    async (mergeThread) => {
      const words = [
        'harbour',
        'lighthouse',
        'ferry',
        'tide',
        'pier',
        'crane',
        'cargo',
        'storm',
        'anchor',
        'quay',
        'dock',
        'buoy',
      ];
      const rand = seededRandom(5);
      const chunks = Array.from({ length: 700 }, (_, i) =>
        chunk(
          `c${i}`,
          Array.from({ length: 2 + Math.floor(rand() * 9) }, () => words[Math.floor(words.length * rand() ** 2)]).join(' '),
          {
            version_id: `v${Math.floor(i / 10)}`,
            collection_id: i % 7 === 0 ? 'other' : 'c1',
          },
        ),
      );
      const path = join(dir, `merged-${mergeThread}.sqlite`);
      const merged = openLexicalIndex(path, { segmentChunks: 4, mergeThread });
      const exhaustive = openLexicalIndex(join(dir, `merged-exhaustive-${mergeThread}.sqlite`), {
        segmentChunks: 4,
        pruning: false,
        mergeThread,
      });
      const single = openLexicalIndex(':memory:');
      const indexes = [merged, exhaustive, single];
      for (let i = 0; i < chunks.length; i += 4) {
        for (const index of indexes) await index.upsert(chunks.slice(i, i + 4));
        // deletions both before and after their segments are merged
        if (i % 120 === 0) for (const index of indexes) await index.deleteVersion(`v${i / 20}`);
      }
      const queries = ['harbour ferry', 'storm anchor quay', 'buoy', 'crane cargo pier lighthouse dock', 'tide tide ferry'];
      const run = async (index: typeof single) =>
        Promise.all(
          queries.flatMap((q) => [
            index.search(q, { k: 10 }),
            index.search(q, { k: 40, filter: { collectionIds: ['c1'] } }),
            index.queryTerms(q, { filter: { collectionIds: ['c1'] } }),
          ]),
        );
      const expected = await run(single);
      // searched while merges run (they yield between batches), and once they are done
      expect(await run(merged)).toEqual(expected);
      await merged.merged();
      expect(await run(merged)).toEqual(expected);
      await exhaustive.merged();
      expect(await run(exhaustive)).toEqual(expected);
      await merged.close();
      const db = new Database(path, { readonly: true });
      const segments = db.prepare('SELECT collection_id AS c, chunks FROM lex_segments ORDER BY seg').all() as {
        c: string;
        chunks: number;
      }[];
      const dead = db.prepare('SELECT count(*) FROM lex_dead').pluck().get() as number;
      db.close();
      // 600 chunks of c1 in segments of 4: tiers of 4, 32 and 256 chunks, at most 7 segments of each
      const ofC1 = segments.filter((x) => x.c === 'c1');
      expect(ofC1.length).toBeLessThanOrEqual(21);
      expect(Math.max(...ofC1.map((x) => x.chunks))).toBeGreaterThan(200);
      expect(dead).toBeLessThan(30);
      const reopened = openLexicalIndex(path, { segmentChunks: 4 });
      expect(await run(reopened)).toEqual(expected);
      await reopened.close();
      await exhaustive.close();
      await single.close();
    },
  );

  it('orders terms as SQLite does (code points), astral characters and the end of the BMP included', () => {
    const terms = ['a', 'ab', 'b', '\uff01', '\u{1f600}', '\ue000', '\ud7ff', '\u{20000}', 'z', '中', '𠮷a', '𠮷', 'ａ', ''];
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (v TEXT PRIMARY KEY) WITHOUT ROWID');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    for (const t of terms) insert.run(t);
    const sqlite = db.prepare('SELECT v FROM t ORDER BY v').pluck().all() as string[];
    db.close();
    expect([...terms].sort(compareBinary)).toEqual(sqlite);
  });

  it.each([false, true])(
    'merges segments of many terms read a page at a time: the hits of one unsegmented index (merge thread: %s)',
    async (mergeThread) => {
      // ~50 distinct words per chunk (and their pairs): each segment holds several pages of terms
      const rand = seededRandom(11);
      const vocabulary = Array.from({ length: 3000 }, (_, i) =>
        i % 3 === 0
          ? `w${i.toString(36)}x`
          : i % 3 === 1
            ? `𠀀${String.fromCodePoint(0x20000 + i)}中`
            : `港${String.fromCodePoint(0x4e00 + i)}`,
      );
      const chunks = Array.from({ length: 64 }, (_, i) =>
        chunk(`m${i}`, Array.from({ length: 50 }, () => vocabulary[Math.floor(vocabulary.length * rand() ** 1.5)]).join(' ')),
      );
      const path = join(dir, `paged-merge-${mergeThread}.sqlite`);
      const merged = openLexicalIndex(path, { segmentChunks: 4, mergeThread });
      const single = openLexicalIndex(':memory:');
      for (let i = 0; i < chunks.length; i += 4) {
        await merged.upsert(chunks.slice(i, i + 4));
        await single.upsert(chunks.slice(i, i + 4));
      }
      await merged.merged();
      const queries = Array.from({ length: 40 }, (_, i) =>
        [vocabulary[i * 7], vocabulary[i * 13 + 1], vocabulary[i * 3 + 2]].join(' '),
      );
      const run = async (index: typeof single) => Promise.all(queries.map((q) => index.search(q, { k: 10 })));
      expect(await run(merged)).toEqual(await run(single));
      await merged.close();
      const db = new Database(path, { readonly: true });
      const rows = segTables(db).map((seg) => ({
        seg,
        n: db
          .prepare(`SELECT (SELECT count(*) FROM lex_seg_${seg}) + (SELECT count(*) FROM lex_short_${seg})`)
          .pluck()
          .get() as number,
      }));
      db.close();
      // 64 chunks in segments of 4 merged to 2 of 32: every row read once, none left behind
      expect(rows).toHaveLength(2);
      expect(Math.min(...rows.map((r) => r.n))).toBeGreaterThan(500);
      // and the merged segments' pages given back to the file system, none left free in the file
      const file = new Database(path, { readonly: true });
      expect(file.pragma('freelist_count', { simple: true })).toBe(0);
      file.close();
    },
  );

  it('reads and merges segments of the WITHOUT ROWID layout beside the rowid one, with the same hits', async () => {
    const rand = seededRandom(5);
    const words = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}`);
    const chunks = Array.from({ length: 64 }, (_, i) =>
      chunk(`o${i}`, Array.from({ length: 30 }, () => words[Math.floor(words.length * rand() ** 2)]).join(' ')),
    );
    const path = join(dir, 'without-rowid.sqlite');
    const old = openLexicalIndex(path, { segmentChunks: 8 });
    for (let i = 0; i < 56; i += 8) await old.upsert(chunks.slice(i, i + 8));
    await old.close();
    // the layout before: every segment's tables WITHOUT ROWID (and its lists of one block among the others)
    const db = new Database(path);
    toPackedRelease(db);
    for (const seg of segTables(db)) {
      const t = `lex_seg_${seg}`;
      db.exec(`CREATE TABLE ${t}_old (term TEXT PRIMARY KEY, n INTEGER, skip BLOB, data BLOB NOT NULL) WITHOUT ROWID;
        INSERT INTO ${t}_old SELECT term, n, skip, data FROM ${t}; DROP TABLE ${t}; ALTER TABLE ${t}_old RENAME TO ${t};
        CREATE TABLE ${t}_parts_old (term TEXT NOT NULL, part INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (term, part)) WITHOUT ROWID;
        INSERT INTO ${t}_parts_old SELECT term, part, data FROM ${t}_parts; DROP TABLE ${t}_parts; ALTER TABLE ${t}_parts_old RENAME TO ${t}_parts`);
    }
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE sql LIKE '%WITHOUT ROWID%'").pluck().get()).toBe(14);
    db.close();
    const reopened = openLexicalIndex(path, { segmentChunks: 8 });
    const single = openLexicalIndex(':memory:');
    await single.upsert(chunks);
    const queries = Array.from({ length: 30 }, (_, i) => `${words[i]} ${words[i * 7 + 3]} ${words[(i * 31) % 300]}`);
    const run = (index: typeof single) => Promise.all(queries.map((q) => index.search(q, { k: 10 })));
    // the last 8 chunks make the eighth segment (rowid) beside seven of the layout before; the merge reads both
    await reopened.upsert(chunks.slice(56));
    await reopened.merged();
    expect(await run(reopened)).toEqual(await run(single));
    await reopened.close();
    const after = new Database(path, { readonly: true });
    expect(segTables(after)).toHaveLength(1);
    // only the merged segment's short table
    expect(after.prepare("SELECT name FROM sqlite_master WHERE sql LIKE '%WITHOUT ROWID%'").pluck().all()).toEqual([
      `lex_short_${segTables(after)[0]}`,
    ]);
    after.close();
  });

  it.each([false, true])(
    'merges segments whose long lists are in parts: the hits of one unsegmented index, the merged lists in parts (merge thread: %s)',
    async (mergeThread) => {
      // eight segments of 4,200 chunks: a word in every chunk has 33 blocks a segment (in parts), 263 merged
      const words = ['harbour', 'ferry', 'tide', 'pier', 'crane', 'cargo', 'storm', 'quay'];
      const chunks = Array.from({ length: 8 * 4200 }, (_, i) =>
        chunk(`p${i}`, `common ${words[i % 8]} ${words[(i * 7) % 8]} n${i % 997}`),
      );
      const path = join(dir, `parted-merge-${mergeThread}.sqlite`);
      const merged = openLexicalIndex(path, { segmentChunks: 4200, mergeThread });
      const single = openLexicalIndex(':memory:', { segmentChunks: 100_000, pruning: false });
      for (let i = 0; i < chunks.length; i += 2100) {
        await merged.upsert(chunks.slice(i, i + 2100));
        await single.upsert(chunks.slice(i, i + 2100));
      }
      await merged.merged();
      const queries = ['common', 'common harbour', 'ferry n5 n17', 'common tide n996'];
      const run = (index: typeof single) => Promise.all(queries.map((q) => index.search(q, { k: 50 })));
      expect(await run(merged)).toEqual(await run(single));
      expect((await merged.search('common', { k: 40_000 })).length).toBe(chunks.length);
      await merged.close();
      await single.close();
      const db = new Database(path, { readonly: true });
      const segs = segTables(db);
      expect(segs).toHaveLength(1);
      const parts = db.prepare(`SELECT count(*) FROM lex_seg_${segs[0]}_parts WHERE term = 'common'`).pluck().get();
      db.close();
      expect(parts).toBe(Math.ceil(Math.ceil(chunks.length / 128) / 32));
    },
  );

  it('closes while a merge runs on the merge thread, and the reopened index merges again with the same hits', async () => {
    const words = ['harbour', 'ferry', 'tide', 'pier', 'crane', 'cargo', '港口', '灯塔'];
    const chunks = Array.from({ length: 36 }, (_, i) =>
      chunk(`c${i}`, `${words[i % 8]} ${words[(i * 5) % 8]} ${words[(i + 2) % 3]} #${i}`),
    );
    const path = join(dir, 'closed-merge.sqlite');
    const index = openLexicalIndex(path, { segmentChunks: 4, mergeThread: true });
    const single = openLexicalIndex(':memory:');
    for (let i = 0; i < 32; i += 4) {
      await index.upsert(chunks.slice(i, i + 4));
      await single.upsert(chunks.slice(i, i + 4));
    }
    // the eighth segment started a merge on the thread
    await index.close();
    const reopened = openLexicalIndex(path, { segmentChunks: 4, mergeThread: true });
    await reopened.upsert(chunks.slice(32));
    await single.upsert(chunks.slice(32));
    const queries = ['harbour ferry', 'tide cargo', 'crane', '港口 灯塔'];
    const run = async (x: typeof single) => Promise.all(queries.map((q) => x.search(q, { k: 20 })));
    expect(await run(reopened)).toEqual(await run(single));
    await reopened.merged();
    expect(await run(reopened)).toEqual(await run(single));
    await reopened.close();
    const peek = new Database(path, { readonly: true });
    const live = new Set(peek.prepare('SELECT seg FROM lex_segments').pluck().all() as number[]);
    expect(live.size).toBe(2);
    expect(segTables(peek).filter((seg) => !live.has(seg))).toEqual([]);
    expect(shortTables(peek)).toEqual(segTables(peek));
    peek.close();
    await single.close();
  });

  it('merges on the index thread instead when the merge thread fails midway, with the same hits', async () => {
    const words = ['harbour', 'ferry', 'tide', 'pier', 'crane', 'cargo'];
    const chunks = Array.from({ length: 32 }, (_, i) => chunk(`c${i}`, `${words[i % 6]} ${words[(i * 5) % 6]} #${i}`));
    const path = join(dir, 'failed-thread.sqlite');
    const index = openLexicalIndex(path, { segmentChunks: 4, mergeThread: true });
    const single = openLexicalIndex(':memory:');
    // a thread that answers the first batch, then stops
    type Thread = { call: (m: string, p: unknown, t?: ArrayBuffer[]) => Promise<unknown> };
    const real = (index as unknown as { merger: { thread: Thread } }).merger.thread;
    const call = real.call.bind(real);
    let batches = 0;
    real.call = (method, payload, transfer) =>
      method === 'next' && ++batches > 1 ? Promise.reject(new Error('stopped')) : call(method, payload, transfer);
    for (let i = 0; i < 32; i += 4) {
      await index.upsert(chunks.slice(i, i + 4));
      await single.upsert(chunks.slice(i, i + 4));
    }
    await index.merged();
    const queries = ['harbour ferry', 'tide cargo', 'crane', 'pier'];
    const run = async (x: typeof single) => Promise.all(queries.map((q) => x.search(q, { k: 40 })));
    expect(await run(index)).toEqual(await run(single));
    expect(batches).toBeGreaterThan(1);
    await index.close();
    const peek = new Database(path, { readonly: true });
    expect(peek.prepare('SELECT count(*) FROM lex_segments').pluck().get()).toBe(1);
    peek.close();
    await single.close();
  });

  it('drops what a merge cut short by a crash left behind, and merges again', async () => {
    const words = ['harbour', 'ferry', 'tide', 'pier', 'crane', 'cargo'];
    const chunks = Array.from({ length: 40 }, (_, i) =>
      chunk(`c${i}`, `${words[i % 6]} ${words[(i * 5) % 6]} ${words[(i + 2) % 3]}`),
    );
    const path = join(dir, 'crashed-merge.sqlite');
    const index = openLexicalIndex(path, { segmentChunks: 4 });
    const single = openLexicalIndex(':memory:');
    for (let i = 0; i < 32; i += 4) {
      await index.upsert(chunks.slice(i, i + 4));
      await single.upsert(chunks.slice(i, i + 4));
    }
    // the eighth segment started a merge: one batch written, then the process dies before it is read
    await new Promise((resolve) => setImmediate(resolve));
    (index as unknown as { db: Database.Database }).db.close();
    const peek = new Database(path, { readonly: true });
    const orphans = () => {
      const live = new Set(peek.prepare('SELECT seg FROM lex_segments').pluck().all() as number[]);
      return [...segTables(peek), ...shortTables(peek)].filter((seg) => !live.has(seg)).length;
    };
    expect(orphans()).toBeGreaterThan(0);
    const reopened = openLexicalIndex(path, { segmentChunks: 4 });
    const queries = ['harbour ferry', 'tide cargo', 'crane'];
    const run = async (x: typeof single) => Promise.all(queries.map((q) => x.search(q, { k: 20 })));
    expect(await run(reopened)).toEqual(await run(single));
    // the first questions are answered before anything a question does not need is dropped or merged
    const left = orphans();
    expect(left).toBeGreaterThan(0);
    // a write's new segment is numbered past what was left behind, and starts the deferred work
    await reopened.upsert(chunks.slice(32, 36));
    await single.upsert(chunks.slice(32, 36));
    expect(await run(reopened)).toEqual(await run(single));
    await reopened.merged();
    expect(await run(reopened)).toEqual(await run(single));
    // the eight merged, the new one beside them
    expect(peek.prepare('SELECT count(*) FROM lex_segments').pluck().get()).toBe(2);
    expect(orphans()).toBe(0);
    peek.close();
    await reopened.close();
    await single.close();
  });

  it('rebuilds the tail from the saved text after a crash, and reads tail terms saved by the earlier layout', async () => {
    const words = ['harbour', 'lighthouse', 'ferry', 'tide', 'pier', 'crane', 'cargo', 'storm', 'anchor', 'quay', '港口', '灯塔'];
    const chunks = Array.from({ length: 30 }, (_, i) =>
      chunk(`c${i}`, Array.from({ length: 2 + (i % 6) }, (_, j) => words[(i * 5 + j * 7) % words.length]).join(' '), {
        collection_id: `col${i % 2}`,
        version_id: `v${i % 4}`,
      }),
    );
    const reference = openLexicalIndex(':memory:');
    await reference.upsert(chunks);
    await reference.deleteVersion('v1');
    const queries = ['harbour ferry', 'storm anchor quay tide', '港口灯塔', 'crane'];
    const run = async (index: typeof reference) =>
      Promise.all(
        queries.flatMap((q) => [index.search(q, { k: 9 }), index.queryTerms(q, { filter: { collectionIds: ['col1'] } })]),
      );
    const expected = await run(reference);
    for (const layout of ['text', 'terms'] as const) {
      const path = join(dir, `crash-${layout}.sqlite`);
      const crashed = openLexicalIndex(path, { segmentChunks: 12 });
      for (let i = 0; i < chunks.length; i += 4) await crashed.upsert(chunks.slice(i, i + 4));
      await crashed.deleteVersion('v1');
      // never closed: what is committed is all a second process finds
      const db = new Database(path);
      expect(db.prepare('SELECT count(*) FROM lex_pending').pluck().get()).toBeGreaterThan(0);
      if (layout === 'terms') {
        const rows = db.prepare('SELECT doc, text FROM lex_pending').raw().all() as [number, string][];
        const counts = (text: string) => {
          const m = new Map<string, number>();
          for (const t of analyze(text)) m.set(t, (m.get(t) ?? 0) + 1);
          return [...m];
        };
        for (const [doc, text] of rows)
          db.prepare('INSERT INTO lex_tail (doc, terms) VALUES (?, ?)').run(doc, JSON.stringify(counts(text)));
        db.exec('DELETE FROM lex_pending');
      }
      db.close();
      const reopened = openLexicalIndex(path, { segmentChunks: 12 });
      expect(await run(reopened)).toEqual(expected);
      await reopened.close();
      const check = new Database(path);
      expect(check.prepare('SELECT (SELECT count(*) FROM lex_tail) + (SELECT count(*) FROM lex_pending)').pluck().get()).toBe(0);
      check.close();
    }
    await reference.close();
  });

  it('moves an index of the row-per-posting layout into the new one', async () => {
    const path = join(dir, 'v1.sqlite');
    const db = new Database(path);
    db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE chunks (doc INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL UNIQUE, version_id TEXT NOT NULL,
        document_id TEXT NOT NULL, collection_id TEXT NOT NULL, page_index INTEGER, len INTEGER NOT NULL, terms TEXT NOT NULL);
      CREATE TABLE postings (term TEXT NOT NULL, doc INTEGER NOT NULL, tf INTEGER NOT NULL, PRIMARY KEY (term, doc)) WITHOUT ROWID;
      INSERT INTO chunks VALUES (1, 'a', 'v1', 'd1', 'c1', 0, 3, '["ferri","tide"]'), (2, 'b', 'v1', 'd1', 'c1', 1, 1, '["tide"]');
      INSERT INTO postings VALUES ('ferri', 1, 2), ('tide', 1, 1), ('tide', 2, 1);`);
    db.close();
    const index = openLexicalIndex(path);
    expect((await index.search('ferry', { k: 5 })).map((h) => h.chunk_id)).toEqual(['a']);
    expect((await index.search('tide', { k: 5, filter: { pageIndexes: [1] } })).map((h) => h.chunk_id)).toEqual(['b']);
    await index.close();
  });

  it('reads, counts and scores only the postings of the collections a query may see', async () => {
    const words = ['harbour', 'lighthouse', 'ferry', 'tide', 'pier', 'crane', 'cargo', 'storm', 'anchor', 'quay'];
    const text = (i: number, n: number) => Array.from({ length: n }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ');
    const own = Array.from({ length: 30 }, (_, i) =>
      chunk(`own${i}`, text(i, 3 + (i % 4)), { collection_id: i % 3 ? 'mine' : 'also-mine', version_id: `v${i % 4}` }),
    );
    const foreign = Array.from({ length: 90 }, (_, i) =>
      chunk(`f${i}`, text(i + 1, 2 + (i % 9)), { collection_id: `other${i % 4}` }),
    );
    const alone = openLexicalIndex(join(dir, 'alone.sqlite'), { segmentChunks: 7 });
    const crowded = openLexicalIndex(join(dir, 'crowded.sqlite'), { segmentChunks: 7 });
    // the same history for the caller's collections in both: only the other collections' chunks differ
    for (const c of own) await alone.upsert([c]);
    for (let i = 0; i < own.length; i++) await crowded.upsert([own[i] as IndexedChunk, ...foreign.slice(i * 3, i * 3 + 3)]);
    await crowded.deleteVersion('v3');
    await alone.deleteVersion('v3');
    const filters = [{ collectionIds: ['mine'] }, { collectionIds: ['mine', 'also-mine'], versionIds: ['v0', 'v1'] }];
    const run = async (index: typeof alone) => {
      const out: unknown[] = [];
      for (const q of ['harbour ferry', 'storm anchor quay tide', 'crane']) {
        for (const filter of filters) {
          out.push(await index.search(q, { k: 8, filter }), await index.queryTerms(q, { filter }));
          await index.search(q, { k: 8, filter });
          out.push({ ...index.lastWork });
        }
      }
      return out;
    };
    const expected = await run(alone);
    expect(await run(crowded)).toEqual(expected);
    expect(expected.some((w) => (w as { postings?: number }).postings)).toBe(true);
    // after both are closed (tails written as segments) and reopened too
    await crowded.close();
    await alone.close();
    const reopened = openLexicalIndex(join(dir, 'crowded.sqlite'), { segmentChunks: 7 });
    const aloneAgain = openLexicalIndex(join(dir, 'alone.sqlite'), { segmentChunks: 7 });
    expect(await run(reopened)).toEqual(await run(aloneAgain));
    await reopened.close();
    await aloneAgain.close();
  });

  it('splits segments that mixed collections into one segment per collection on open', async () => {
    const path = join(dir, 'mixed.sqlite');
    const chunks = Array.from({ length: 40 }, (_, i) =>
      chunk(`c${i}`, `tide ${i % 2 ? 'ferry' : 'harbour'} ${'pier '.repeat(i % 5)}`, { collection_id: `col${i % 3}` }),
    );
    const reference = openLexicalIndex(':memory:');
    await reference.upsert(chunks);
    const index = openLexicalIndex(path, { segmentChunks: 10 });
    await index.upsert(chunks);
    await index.close();
    // the layout before collections had their own segments: segments without a collection
    const db = new Database(path);
    toPreviousRelease(db);
    db.exec('UPDATE lex_segments SET collection_id = NULL; ALTER TABLE lex_segments DROP COLUMN collection_id');
    db.close();
    const reopened = openLexicalIndex(path, { segmentChunks: 10 });
    for (const filter of [undefined, { collectionIds: ['col1'] }, { collectionIds: ['col0', 'col2'] }]) {
      const opts = filter ? { k: 50, filter } : { k: 50 };
      expect(await reopened.search('tide ferry pier', opts)).toEqual(await reference.search('tide ferry pier', opts));
    }
    await reopened.close();
    const check = new Database(path);
    expect(check.prepare('SELECT count(*) FROM lex_segments WHERE collection_id IS NULL').pluck().get()).toBe(0);
    check.close();
    await reference.close();
  });

  describe('block-max pruning', () => {
    // Made-up words drawn with a Zipf-like skew: a few in most chunks (lists of many blocks), most rare.
    const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'zu', 'pe', 'go', 'fa'];
    const vocabulary = Array.from({ length: 400 }, (_, i) => {
      let w = '';
      for (let x = i + 13; w.length < 6 || x > 0; x = Math.floor(x / syllables.length)) w += syllables[x % syllables.length];
      return w;
    });
    const draw = (rand: () => number) => vocabulary[Math.floor(vocabulary.length * rand() ** 3)] as string;
    // 4,000 words: a few in many chunks, most in a few dozen
    const drawWide = (rand: () => number) => `${draw(rand)}${Math.floor(10 * rand() ** 2)}`;
    const corpus = (seed: number, count: number): IndexedChunk[] => {
      const rand = seededRandom(seed);
      return Array.from({ length: count }, (_, i) =>
        chunk(`c${i}`, Array.from({ length: 3 + Math.floor(rand() * 40) }, () => draw(rand)).join(' '), {
          collection_id: `col${Math.floor(rand() * 3)}`,
          version_id: `v${Math.floor(i / 40) % 9}`,
          document_id: `d${i % 17}`,
          page_index: i % 4,
        }),
      );
    };

    it.each(['block-max', 'term-at-a-time', 'auto'] as const)(
      'gives the exhaustive top k (same chunks, scores and tie order) on seeded random queries (%s)',
      async (segmentScoring) => {
        const chunks = corpus(7, 2400);
        const path = join(dir, `pruned-${segmentScoring}.sqlite`);
        const pruned = openLexicalIndex(path, { segmentChunks: 300, segmentScoring });
        const exhaustive = openLexicalIndex(join(dir, `exhaustive-${segmentScoring}.sqlite`), {
          segmentChunks: 300,
          pruning: false,
        });
        for (let i = 0; i < chunks.length; i += 97) {
          await pruned.upsert(chunks.slice(i, i + 97));
          await exhaustive.upsert(chunks.slice(i, i + 97));
        }
        // deleted chunks in segments (their lists are counted one by one) and a re-upserted chunk
        for (const index of [pruned, exhaustive]) {
          await index.deleteVersion('v4');
          await index.upsert([chunk('c3', `${vocabulary[0]} ${vocabulary[5]} ${vocabulary[300]}`, { collection_id: 'col1' })]);
        }
        const rand = seededRandom(11);
        const filters = [
          undefined,
          { collectionIds: ['col0'] },
          { collectionIds: ['col2', 'col1'] },
          { collectionIds: ['col0', 'col1', 'col2'], versionIds: ['v0', 'v1', 'v2', 'v3', 'v5'] },
          { documentIds: ['d1', 'd2', 'd3', 'd5', 'd8'], pageIndexes: [0, 2] },
        ];
        const queries = Array.from({ length: 300 }, (_, q) => ({
          text: Array.from({ length: 1 + Math.floor(rand() * 7) }, () => draw(rand)).join(' '),
          k: [1, 3, 10, 10, 50][q % 5] as number,
          filter: filters[Math.floor(rand() * filters.length)],
        }));
        const run = async (index: typeof pruned) => {
          const out: unknown[] = [];
          const work = { postings: 0, scored: 0, skipped: 0 };
          for (const { text, k, filter } of queries) {
            out.push(await index.search(text, filter ? { k, filter } : { k }));
            work.postings += index.lastWork.postings;
            work.scored += index.lastWork.scored;
            work.skipped += index.lastWork.skipped;
          }
          return { out, work };
        };
        const expected = await run(exhaustive);
        expect((await run(pruned)).out).toEqual(expected.out);
        expect((expected.out as unknown[][]).filter((hits) => hits.length > 0).length).toBeGreaterThan(250);
        // the same after a reopen (the chunk table from its snapshot, every tail in segments); block-max with less
        // work: lists of at most 300 postings here are a few blocks each, so most blocks hold a candidate; at scale far fewer do
        await pruned.close();
        await exhaustive.close();
        const reopened = openLexicalIndex(path, { segmentChunks: 300, segmentScoring });
        const reference = openLexicalIndex(join(dir, `exhaustive-${segmentScoring}.sqlite`), {
          segmentChunks: 300,
          pruning: false,
        });
        const got = await run(reopened);
        const all = await run(reference);
        expect(all.out).toEqual(expected.out);
        expect(got.out).toEqual(expected.out);
        if (segmentScoring === 'block-max') {
          expect(got.work.postings).toBeLessThan(all.work.postings);
          expect(got.work.skipped).toBeGreaterThan(0);
          expect(got.work.scored).toBeLessThan(all.work.scored / 5);
        }
        await reopened.close();
        await reference.close();
      },
    );

    it('gives the exhaustive top k for questions of many terms over a segment far longer than a window, either way', async () => {
      // a question of 12–40 terms (as a Japanese one of many bigrams is), rare words among them whose blocks
      // each span several windows of chunk numbers: one segment of 24,000 short chunks
      const chunks = Array.from({ length: 24_000 }, (_, i) => {
        const rand = seededRandom(1000 + i);
        return chunk(`s${i}`, Array.from({ length: 4 + Math.floor(rand() * 12) }, () => drawWide(rand)).join(' '));
      });
      const path = join(dir, 'many-terms.sqlite');
      const blockMax = openLexicalIndex(path, { segmentChunks: 24_000, segmentScoring: 'block-max' });
      const exhaustive = openLexicalIndex(':memory:', { segmentChunks: 24_000, pruning: false });
      for (let i = 0; i < chunks.length; i += 4000) {
        await blockMax.upsert(chunks.slice(i, i + 4000));
        await exhaustive.upsert(chunks.slice(i, i + 4000));
      }
      const termAtATime = openLexicalIndex(path, { segmentChunks: 24_000, segmentScoring: 'term-at-a-time' });
      const rand = seededRandom(3);
      const queries = Array.from({ length: 60 }, () =>
        Array.from({ length: 12 + Math.floor(rand() * 29) }, () => drawWide(rand)).join(' '),
      );
      for (const q of queries) {
        const expected = await exhaustive.search(q, { k: 10 });
        expect(expected).toHaveLength(10);
        expect(await blockMax.search(q, { k: 10 })).toEqual(expected);
        expect(await termAtATime.search(q, { k: 10 })).toEqual(expected);
        // no posting decoded twice: at most every posting of the segment's lists
        expect(termAtATime.lastWork.postings).toBeLessThanOrEqual(exhaustive.lastWork.postings);
      }
      await blockMax.close();
      await termAtATime.close();
      await exhaustive.close();
    });

    it('moves the long lists of the layout before parts into parts on open, losing no posting, and reads only some parts', async () => {
      // one collection: two segments of 5,000 chunks, where the common words' lists run to 35 blocks or more
      const chunks = corpus(5, 10_000).map((c, i) => ({
        ...c,
        collection_id: 'col0',
        ...(i >= 10 && i < 20 ? { retrieval_text: `${c.retrieval_text} rarest` } : {}),
      }));
      const reference = openLexicalIndex(':memory:', { pruning: false });
      await reference.upsert(chunks);
      const path = join(dir, 'unparted.sqlite');
      const index = openLexicalIndex(path, { segmentChunks: 5000 });
      await index.upsert(chunks);
      await index.close();
      // the layout before parts: every list whole in its segment's table, no parts tables
      const db = new Database(path);
      const partsOf = (seg: number) => db.prepare(`SELECT data FROM lex_seg_${seg}_parts WHERE term = ? ORDER BY part`).pluck();
      let parted = 0;
      for (const seg of segTables(db)) {
        const terms = db.prepare(`SELECT term FROM lex_seg_${seg} WHERE length(data) = 0`).pluck().all() as string[];
        parted += terms.length;
        for (const term of terms)
          db.prepare(`UPDATE lex_seg_${seg} SET data = ? WHERE term = ?`).run(
            Buffer.concat(partsOf(seg).all(term) as Buffer[]),
            term,
          );
        db.exec(`DROP TABLE lex_seg_${seg}_parts`);
      }
      db.exec("DELETE FROM meta WHERE key = 'parts'");
      db.close();
      expect(parted).toBeGreaterThan(1);
      const old = openLexicalIndex(path, { segmentChunks: 5000, segmentScoring: 'block-max' });
      // every posting of the long lists: each common word alone, every chunk that holds it
      for (const word of vocabulary.slice(0, 30))
        expect(await old.search(word, { k: 10_000 })).toEqual(await reference.search(word, { k: 10_000 }));
      const queries = [0, 1, 2, 3, 4].map((q) => [vocabulary[q], vocabulary[q * 60 + 90], vocabulary[q + 7]].join(' '));
      for (const q of [...queries, `${vocabulary[0]} rarest`])
        expect(await old.search(q, { k: 10 })).toEqual(await reference.search(q, { k: 10 }));
      // the ten chunks of a word found in them alone come first; the common word's other parts are never read
      const read = old.lastWork.parts;
      await old.close();
      const check = new Database(path);
      let held = 0;
      for (const seg of segTables(check)) {
        expect(check.prepare(`SELECT count(*) FROM lex_seg_${seg} WHERE length(data) = 0`).pluck().get()).toBeGreaterThan(0);
        expect(
          check.prepare(`SELECT count(*) FROM lex_seg_${seg} WHERE length(skip) > 512 AND length(data) > 0`).pluck().get(),
        ).toBe(0);
        held += check.prepare(`SELECT count(*) FROM lex_seg_${seg}_parts WHERE term = ?`).pluck().get(vocabulary[0]) as number;
      }
      check.close();
      // the part holding the ten chunks, of the common word's parts in both segments
      expect(held).toBeGreaterThanOrEqual(3);
      expect(read).toBe(1);
      await reference.close();
    });

    it('adds skip tables to the lists of the layout without blocks, and ignores a snapshot older than the rows', async () => {
      const chunks = corpus(3, 900);
      const reference = openLexicalIndex(':memory:', { pruning: false });
      await reference.upsert(chunks);
      await reference.deleteVersion('v2');
      const queries = [0, 1, 2, 3].map((q) => [vocabulary[q], vocabulary[q * 40 + 7], vocabulary[q + 3]].join(' '));
      const run = async (index: typeof reference) =>
        Promise.all(
          queries.flatMap((q) => [index.search(q, { k: 10 }), index.search(q, { k: 5, filter: { collectionIds: ['col1'] } })]),
        );
      const expected = await run(reference);
      const path = join(dir, 'unblocked.sqlite');
      const index = openLexicalIndex(path, { segmentChunks: 200 });
      await index.upsert(chunks);
      await index.close();
      // the layout before blocks: no counts, skip tables or snapshot; then a chunk deleted after the segments were written
      const db = new Database(path);
      toPreviousRelease(db);
      // (and of one table for every segment's lists)
      db.exec(
        'CREATE TABLE lex_postings (seg INTEGER NOT NULL, term TEXT NOT NULL, data BLOB NOT NULL, PRIMARY KEY (seg, term)) WITHOUT ROWID',
      );
      for (const seg of segTables(db))
        db.exec(
          `INSERT INTO lex_postings SELECT ${seg}, term, data FROM lex_seg_${seg}; DROP TABLE lex_seg_${seg}; DROP TABLE lex_seg_${seg}_parts`,
        );
      db.exec(`DROP TABLE lex_dead; DROP TABLE lex_snapshot; DELETE FROM meta WHERE key IN ('generation', 'blocks')`);
      db.close();
      const old = openLexicalIndex(path, { segmentChunks: 200 });
      await old.deleteVersion('v2');
      expect(await run(old)).toEqual(expected);
      await old.close();
      const check = new Database(path);
      expect(check.prepare("SELECT 1 FROM sqlite_master WHERE name = 'lex_postings'").get()).toBeUndefined();
      const segs = segTables(check);
      expect(segs.length).toBeGreaterThan(0);
      for (const seg of segs)
        expect(check.prepare(`SELECT count(*) FROM lex_seg_${seg} WHERE skip IS NULL`).pluck().get()).toBe(0);
      // a snapshot whose generation is not the index's is not used: the rows are read
      check.exec(`UPDATE meta SET value = value + 1 WHERE key = 'generation'`);
      check.prepare("UPDATE lex_snapshot SET data = ? WHERE name = 'lens'").run(Buffer.alloc(8));
      check.close();
      const again = openLexicalIndex(path, { segmentChunks: 200 });
      expect(await run(again)).toEqual(expected);
      await again.close();
    });
  });
});
