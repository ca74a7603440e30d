import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IndexedChunk, SearchFilter } from '@pinpoint/core';
import { seededRandom } from '@pinpoint/testing';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKED, VARINT } from './block-codec.js';
import { SHORT_LISTS } from './merge.js';
import { toPackedRelease, toPreviousRelease } from './previous-release.js';
import { openLexicalIndex, type SqliteLexicalIndex } from './sqlite-index.js';

/**
 * Segments of the releases before: PACKED (every list in the rowid table with its skip table) and,
 * before it, VARINT lists; read beside and merged with segments of the current format (SHORT_LISTS).
 */

const dir = mkdtempSync(join(tmpdir(), 'pp-lex-format-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'zu', 'pe'];
const vocabulary = Array.from({ length: 300 }, (_, i) => {
  let w = '';
  for (let x = i + 11; w.length < 6 || x > 0; x = Math.floor(x / syllables.length)) w += syllables[x % syllables.length];
  return w;
});
const rand = seededRandom(21);
/** A few words in most chunks (lists of many blocks, tfs above 1), most in a few. */
const draw = () => vocabulary[Math.floor(vocabulary.length * rand() ** 3)] as string;
const corpus: IndexedChunk[] = Array.from({ length: 1400 }, (_, i) => ({
  chunk_id: `c${i}`,
  version_id: `v${i % 7}`,
  document_id: `d${i % 13}`,
  collection_id: `col${i % 2}`,
  retrieval_text: Array.from({ length: 4 + Math.floor(rand() * 30) }, draw).join(' '),
}));
const queries = Array.from({ length: 40 }, (_, q) => Array.from({ length: 1 + (q % 6) }, draw).join(' '));
const filters: (SearchFilter | undefined)[] = [undefined, { collectionIds: ['col1'] }, { versionIds: ['v0', 'v2', 'v3'] }];

/** Every question's hits (ids, scores, order) and the work each took. */
async function answers(index: SqliteLexicalIndex) {
  const out: unknown[] = [];
  for (const [q, text] of queries.entries()) {
    const filter = filters[q % filters.length];
    out.push(await index.search(text, filter ? { k: 10, filter } : { k: 10 }), index.lastWork);
  }
  return out;
}

const hitsOnly = (all: unknown[]) => all.filter((_, i) => i % 2 === 0);

function formats(path: string): number[] {
  const db = new Database(path, { readonly: true });
  const out = db.prepare('SELECT format FROM lex_segments ORDER BY seg').pluck().all() as number[];
  db.close();
  return out;
}

/** The two releases before, each as a rewrite of a closed file written by this one. */
const releases = [
  { name: 'PACKED', format: PACKED, rewrite: toPackedRelease },
  { name: 'VARINT', format: VARINT, rewrite: toPreviousRelease },
];

function rewriteAs(path: string, rewrite: (db: Database.Database) => void): void {
  const db = new Database(path);
  rewrite(db);
  db.close();
}

/** Rows in a file's segment tables: [rowid tables, short tables]. */
function rowCounts(path: string): [number, number] {
  const db = new Database(path, { readonly: true });
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'lex_*_[0-9]*'")
    .pluck()
    .all() as string[];
  const count = (glob: RegExp) =>
    tables.filter((t) => glob.test(t)).reduce((n, t) => n + (db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number), 0);
  const out: [number, number] = [count(/^lex_seg_\d+$/), count(/^lex_short_\d+$/)];
  db.close();
  return out;
}

/** Writes `chunks` into the index at `path` in upserts of `batch`, deleting version v3 after the first half. */
async function write(path: string, chunks: IndexedChunk[], options: { segmentChunks: number }): Promise<void> {
  const index = openLexicalIndex(path, options);
  for (let i = 0; i < chunks.length; i += 100) await index.upsert(chunks.slice(i, i + 100));
  await index.deleteVersion('v3');
  await index.close();
}

describe('postings formats', () => {
  it.each(['auto', 'term-at-a-time', 'block-max'] as const)(
    'a segment of the current format answers as the same segment of each format before, hits and work (%s)',
    async (segmentScoring) => {
      const path = join(dir, `current-${segmentScoring}.sqlite`);
      await write(path, corpus.slice(0, 1000), { segmentChunks: 200 });
      expect(new Set(formats(path))).toEqual(new Set([SHORT_LISTS]));
      const [long, short] = rowCounts(path);
      // most lists are of one block, and apart; the common words' lists stay in the rowid tables
      expect(short).toBeGreaterThan(long);
      expect(long).toBeGreaterThan(0);
      const read = async () => {
        const index = openLexicalIndex(path, { segmentChunks: 200, segmentScoring });
        const out = await answers(index);
        await index.close();
        return out;
      };
      const current = await read();
      for (const { format, rewrite } of releases) {
        rewriteAs(path, rewrite);
        expect(rowCounts(path)).toEqual([long + short, 0]);
        // the same blocks, bounds and skips: the same hits, scores, order and work
        expect(await read()).toEqual(current);
        // (the file of the release before formats were recorded gets its column at open)
        expect(new Set(formats(path))).toEqual(new Set([format]));
      }
    },
  );

  it.each(releases)(
    'opens a folder of the $name release and answers as it did; with new segments beside, as an all-$name index',
    async ({ name, format, rewrite }) => {
      const first = corpus.slice(0, 1000);
      const rest = corpus.slice(1000);
      const reference = openLexicalIndex(':memory:', { pruning: false });
      await reference.upsert(first);
      await reference.deleteVersion('v3');

      const mixed = join(dir, `mixed-${name}.sqlite`);
      await write(mixed, first, { segmentChunks: 200 });
      const current = openLexicalIndex(mixed, { segmentChunks: 200 });
      const currentAnswers = await answers(current);
      await current.close();
      rewriteAs(mixed, rewrite);
      const previous = openLexicalIndex(mixed, { segmentChunks: 200 });
      const previousAnswers = await answers(previous);
      // the same hits and the same work (the same blocks, skipped alike) as the current file and the exhaustive pass
      expect(previousAnswers).toEqual(currentAnswers);
      expect(hitsOnly(previousAnswers)).toEqual(hitsOnly(await answers(reference)));
      expect(new Set(formats(mixed))).toEqual(new Set([format]));
      for (let i = 0; i < rest.length; i += 100) await previous.upsert(rest.slice(i, i + 100));
      await previous.close();
      const segs = formats(mixed);
      expect(segs.filter((f) => f === format).length).toBeGreaterThanOrEqual(4);
      expect(segs.filter((f) => f === SHORT_LISTS).length).toBeGreaterThanOrEqual(2);

      const allPrevious = join(dir, `all-${name}.sqlite`);
      await write(allPrevious, first, { segmentChunks: 200 });
      const more = openLexicalIndex(allPrevious, { segmentChunks: 200 });
      for (let i = 0; i < rest.length; i += 100) await more.upsert(rest.slice(i, i + 100));
      await more.close();
      rewriteAs(allPrevious, rewrite);

      await reference.upsert(rest);
      const [a, b] = [openLexicalIndex(mixed, { segmentChunks: 200 }), openLexicalIndex(allPrevious, { segmentChunks: 200 })];
      expect(new Set(formats(allPrevious))).toEqual(new Set([format]));
      const mixedAnswers = await answers(a);
      expect(mixedAnswers).toEqual(await answers(b));
      expect(hitsOnly(mixedAnswers)).toEqual(hitsOnly(await answers(reference)));
      await Promise.all([a.close(), b.close(), reference.close()]);
    },
  );

  it.each(releases.flatMap((release) => [false, true].map((mergeThread) => ({ ...release, mergeThread }))))(
    'merges segments of the $name release into one of the current format, answering the same (merge thread: $mergeThread)',
    async ({ name, rewrite, mergeThread }) => {
      const path = join(dir, `merge-${name}-${mergeThread}.sqlite`);
      // eight segments of one collection, of alternating sizes so of two tiers: none merged as they are written
      const chunks = corpus.slice(0, 4 * 2 + 4 * 30).map((c) => ({ ...c, collection_id: 'col0' }));
      const index = openLexicalIndex(path, { segmentChunks: 10 });
      for (let at = 0, s = 0; s < 8; s++) {
        const size = s % 2 ? 30 : 2;
        await index.upsert(chunks.slice(at, at + size));
        index.flush();
        at += size;
      }
      await index.deleteVersion('v3');
      await index.close();
      expect(formats(path)).toHaveLength(8);
      rewriteAs(path, rewrite);
      const reference = openLexicalIndex(':memory:', { pruning: false });
      await reference.upsert(chunks);
      await reference.deleteVersion('v3');
      const expected = hitsOnly(await answers(reference));

      // with segments of 1,000 chunks, all eight are of one tier
      const reopened = openLexicalIndex(path, { segmentChunks: 1000, mergeThread });
      expect(hitsOnly(await answers(reopened))).toEqual(expected);
      await reopened.merged();
      expect(formats(path)).toEqual([SHORT_LISTS]);
      expect(rowCounts(path)[1]).toBeGreaterThan(0);
      expect(hitsOnly(await answers(reopened))).toEqual(expected);
      await reopened.close();
      const again = openLexicalIndex(path, { segmentChunks: 1000 });
      expect(hitsOnly(await answers(again))).toEqual(expected);
      await Promise.all([again.close(), reference.close()]);
    },
  );
});
