import { randomUUID } from 'node:crypto';
import { analyze } from '@pinpoint/analysis';
import { describeLexicalIndexConformance } from '@pinpoint/conformance';
import { type FakeQdrant, startFakeQdrant } from '@pinpoint/testing';
import { afterAll, beforeAll } from 'vitest';
import { QdrantLexicalIndex } from './qdrant-lexical.js';

let fake: FakeQdrant;
// PINPOINT_TEST_QDRANT_URL runs the same suite against a real Qdrant instead of the local fake.
const url = () => process.env.PINPOINT_TEST_QDRANT_URL ?? fake.url;
beforeAll(async () => {
  fake = await startFakeQdrant();
});
afterAll(() => fake.close());

describeLexicalIndexConformance('QdrantLexicalIndex (BM25 sparse vectors, idf modifier, one shard per collection)', async () => {
  const port = await QdrantLexicalIndex.open({ url: url(), collection: `pp_lex_${randomUUID().slice(0, 8)}`, analyze });
  return { port, dispose: () => port.close() };
});
