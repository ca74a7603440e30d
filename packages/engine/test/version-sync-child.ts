/**
 * Test fixture for a sync killed mid-way: uploads one file without a worker, cancels its queued
 * job, and when the version sync starts unindexing reports "syncing" and hangs until the test
 * SIGKILLs it. argv: <data dir>.
 */
import { join } from 'node:path';
import { openLexicalIndex } from '@pinpoint/retrieval';
import { FsBlobStore, SqliteJobQueue, SqliteMetadataStore } from '@pinpoint/storage';
import { defaultEngineConfig } from '../src/config.js';
import { createEngine } from '../src/engine.js';

const [dataDir] = process.argv.slice(2) as [string];
const lexical = openLexicalIndex(join(dataDir, 'lexical.db'));
lexical.deleteVersion = async () => {
  process.send?.('syncing');
  await new Promise(() => {});
};
const engine = createEngine(defaultEngineConfig, {
  metadata: new SqliteMetadataStore(join(dataDir, 'metadata.db')),
  blobs: new FsBlobStore(join(dataDir, 'blobs')),
  queue: new SqliteJobQueue({ path: join(dataDir, 'jobs.db'), pollMs: 10 }),
  lexical,
});
const collection = await engine.ensureCollection('killed-sync');
const [uploaded] = await engine.upload(collection.collection_id, [
  { name: 'notes.md', bytes: new TextEncoder().encode('# Notes\n\nThe okapi lives in the rainforest of the Congo.') },
]);
await engine.ports.queue.cancel(uploaded?.job?.job_id ?? '');
