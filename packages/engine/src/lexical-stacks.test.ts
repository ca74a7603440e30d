import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANALYZER_ID, analyze } from '@pinpoint/analysis';
import type { LexicalIndex } from '@pinpoint/core';
import { dropSchema, PgLexicalIndex } from '@pinpoint/postgres';
import { defaultTermWeight, openLexicalIndex } from '@pinpoint/retrieval';
import { FsBlobStore, SqliteJobQueue, SqliteMetadataStore } from '@pinpoint/storage';
import { type FakeQdrant, startFakeQdrant } from '@pinpoint/testing';
import { QdrantLexicalIndex } from '@pinpoint/vectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEngineConfig } from './config.js';
import { createEngine, type Engine } from './engine.js';

const SET = join(import.meta.dirname, '../../../../shared/eval/squad2-dev');
const DOCS = ['000_Normans.md', '004_1973_oil_crisis.txt'];
const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const schema = `pp_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

interface Question {
  question: string;
  gold: { file: string }[];
  answerable: boolean;
}
// The questions about these documents, and as many unanswerable ones: both sides of the gate.
const all = readFileSync(join(SET, 'questions.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Question);
const questions = [
  ...all.filter((q) => q.gold.some((g) => DOCS.includes(g.file))).slice(0, 40),
  ...all.filter((q) => !q.answerable).slice(0, 20),
].map((q) => q.question);

const dir = mkdtempSync(join(tmpdir(), 'pp-lexical-stacks-'));
let qdrant: FakeQdrant;

/** The embedded engine with the given lexical index; the same documents ingested. */
async function engineWith(name: string, lexical: LexicalIndex): Promise<Engine> {
  const at = join(dir, name);
  const engine = createEngine(
    { ...defaultEngineConfig, parse: { ...defaultEngineConfig.parse, isolate: false } },
    {
      metadata: new SqliteMetadataStore(join(at, 'metadata.db')),
      blobs: new FsBlobStore(join(at, 'blobs')),
      queue: new SqliteJobQueue({ path: join(at, 'jobs.db'), backoffMs: 10, pollMs: 10 }),
      lexical,
    },
  );
  engine.startWorker({ concurrency: 1 });
  const collection = await engine.ensureCollection('stacks');
  const uploaded = await engine.upload(
    collection.collection_id,
    DOCS.map((name) => ({ name, bytes: readFileSync(join(SET, 'docs', name)) })),
  );
  const versions = await engine.waitForVersions(
    uploaded.map((u) => u.version.version_id),
    { timeoutMs: 60_000 },
  );
  expect(versions.map((v) => v.state)).toEqual(DOCS.map(() => 'ready'));
  return engine;
}

async function refusals(engine: Engine): Promise<boolean[]> {
  const out = [];
  for (const question of questions) out.push((await engine.ask(question)).refused);
  return out;
}

const engines: Engine[] = [];
beforeAll(async () => {
  qdrant = await startFakeQdrant();
}, 60_000);
afterAll(async () => {
  for (const e of engines) await e.close();
  await qdrant.close();
  await dropSchema(DATABASE_URL, schema);
  rmSync(dir, { recursive: true, force: true });
});

describe('the same questions through the embedded and the distributed lexical indexes', () => {
  it('give the same query-term weights and the same gate decisions', async () => {
    const sqlite = openLexicalIndex(join(dir, 'lexical.db'));
    const pg = await PgLexicalIndex.open({
      connectionString: DATABASE_URL,
      schema,
      analyzer: { id: ANALYZER_ID, analyze },
      termWeight: defaultTermWeight,
    });
    const sparse = await QdrantLexicalIndex.open({
      url: qdrant.url,
      collection: 'pp_lex_stacks',
      analyze,
      termWeight: defaultTermWeight,
    });
    for (const [name, index] of [
      ['sqlite', sqlite],
      ['pg', pg],
      ['qdrant', sparse],
    ] as const)
      engines.push(await engineWith(name, index));

    for (const question of questions.slice(0, 10)) {
      const expected = await sqlite.queryTerms(question);
      expect(expected.some((t) => t.weight > 0)).toBe(true);
      for (const other of [pg, sparse]) {
        const got = await other.queryTerms(question);
        expect(got.map((t) => t.term)).toEqual(expected.map((t) => t.term));
        for (const [i, t] of got.entries()) expect(t.weight).toBeCloseTo(expected[i]?.weight ?? Number.NaN, 6);
      }
    }
    const [embedded, ...distributed] = await Promise.all(engines.map(refusals));
    expect(new Set(embedded)).toEqual(new Set([true, false]));
    for (const d of distributed) expect(d).toEqual(embedded);
  }, 180_000);
});
