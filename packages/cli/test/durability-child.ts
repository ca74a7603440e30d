/**
 * Test fixture for crash recovery: ingests one file, and once its chunks are stored and indexed
 * (but before the version is marked ready) reports "indexed" and hangs until the test SIGKILLs it.
 * argv: <data dir> <file>.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { defaultEngineConfig } from '@pinpoint/engine';
import { openEmbeddedEngine } from '../src/embedded.js';

const [dataDir, file] = process.argv.slice(2) as [string, string];
const engine = openEmbeddedEngine(dataDir, { ...defaultEngineConfig, parse: { ...defaultEngineConfig.parse, isolate: false } });
const lexical = engine.ports.lexical;
const upsert = lexical.upsert.bind(lexical);
lexical.upsert = async (chunks) => {
  await upsert(chunks);
  process.send?.('indexed');
  await new Promise(() => {});
};
const collection = await engine.ensureCollection('crash');
await engine.upload(collection.collection_id, [{ name: basename(file), bytes: new Uint8Array(readFileSync(file)) }]);
engine.startWorker();
