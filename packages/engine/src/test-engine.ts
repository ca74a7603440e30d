import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UploadResult } from '@pinpoint/core';
import { openLexicalIndex } from '@pinpoint/retrieval';
import { FsBlobStore, SqliteJobQueue, SqliteMetadataStore } from '@pinpoint/storage';
import { defaultEngineConfig, type EnginePorts } from './config.js';
import { createEngine, type Engine } from './engine.js';
import type { UploadFile } from './upload.js';

/**
 * An engine on embedded stores in a fresh temporary folder, with the default configuration (isolated
 * parsing unless `isolate: false`, default limits) and one worker running: the path an upload takes.
 * `ports` adds model ports (a generator, an embedder). close() removes the folder.
 */
export function openTestEngine(
  prefix: string,
  options: { isolate?: boolean; ports?: Partial<EnginePorts> } = {},
): { engine: Engine; dir: string; close: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const config = { ...defaultEngineConfig, parse: { ...defaultEngineConfig.parse, isolate: options.isolate ?? true } };
  const engine = createEngine(config, {
    metadata: new SqliteMetadataStore(join(dir, 'metadata.db')),
    blobs: new FsBlobStore(join(dir, 'blobs')),
    queue: new SqliteJobQueue({ path: join(dir, 'jobs.db'), backoffMs: 10, pollMs: 10 }),
    lexical: openLexicalIndex(join(dir, 'lexical.db')),
    ...options.ports,
  });
  engine.startWorker({ concurrency: 1 });
  return {
    engine,
    dir,
    close: async () => {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Uploads files into a collection and waits until every version has settled. */
export async function uploadSettled(
  engine: Engine,
  collectionId: string,
  files: UploadFile[],
  timeoutMs: number,
): Promise<UploadResult[]> {
  const uploaded = await engine.upload(collectionId, files);
  await engine.waitForVersions(
    uploaded.map((u) => u.version.version_id),
    { timeoutMs },
  );
  return uploaded;
}

/** Text files as upload files (UTF-8). */
export const textFiles = (files: Record<string, string>): UploadFile[] =>
  Object.entries(files).map(([name, text]) => ({ name, bytes: new TextEncoder().encode(text) }));

/** `openTestEngine` (parsed in process) with text files uploaded to a `default` collection and ingested. */
export async function openTestEngineWith(
  prefix: string,
  files: Record<string, string>,
): Promise<{ engine: Engine; close: () => Promise<void> }> {
  const { engine, close } = openTestEngine(prefix, { isolate: false });
  await uploadSettled(engine, (await engine.ensureCollection('default')).collection_id, textFiles(files), 30_000);
  return { engine, close };
}
