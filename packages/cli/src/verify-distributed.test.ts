import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDistributedPorts } from '@pinpoint/compose';
import { createEngine, defaultEngineConfig, type Engine } from '@pinpoint/engine';
import { dropSchema } from '@pinpoint/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIXED_FILES, uploadFiles } from '../test/data-folder-fixture.js';
import { loadCliConfig } from './config.js';
import { verifyDataFolder } from './verify.js';

const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = 'redis://127.0.0.1:6379';

describe('pinpoint verify on a distributed deployment (real PostgreSQL, Redis/BullMQ, blobs on a shared volume)', () => {
  const schema = `pp_verify_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const dir = mkdtempSync(join(tmpdir(), 'pp-verify-dist-'));
  const blobDir = join(dir, 'blobs');
  const env = {
    PINPOINT_MODE: 'distributed',
    PINPOINT_DATABASE_URL: DATABASE_URL,
    PINPOINT_PG_SCHEMA: schema,
    PINPOINT_BLOB_DIR: blobDir,
  };
  const verify = (...flags: string[]) =>
    verifyDataFolder(loadCliConfig(['verify', ...flags], env), { repair: flags.includes('--repair'), progress: () => {} });
  let engine: Engine;
  let versions: string[] = [];

  beforeAll(async () => {
    const ports = await openDistributedPorts({
      databaseUrl: DATABASE_URL,
      pgSchema: schema,
      lexical: { kind: 'postgres' },
      blobs: { kind: 'fs' },
      blobDir,
      queue: { redisUrl: REDIS_URL, queueName: `verify-${schema}`, prefix: `pp-test-${schema}` },
    });
    engine = createEngine({ ...defaultEngineConfig, parse: { ...defaultEngineConfig.parse, isolate: false } }, ports);
    engine.startWorker();
    versions = (await engine.waitForVersions(await uploadFiles(engine, MIXED_FILES.slice(1)), { timeoutMs: 60_000 })).map(
      (v) => v.version_id,
    );
  }, 60_000);

  afterAll(async () => {
    await engine.close();
    await dropSchema(DATABASE_URL, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('is clean after ingestion, names lost postings, and --repair restores identical search results', async () => {
    expect((await verify()).problems).toEqual([]);
    const before = (await engine.search('table', { k: 20 })).hits.map((h) => [h.chunk_id, h.scores]);
    // the damage done with PostgreSQL's own client, as an operator's mistake would be
    const sql = `DELETE FROM ${schema}.lex_postings WHERE chunk_id IN (SELECT chunk_id FROM ${schema}.lex_chunks WHERE version_id = '${versions[1]}')`;
    execFileSync('psql', [DATABASE_URL, '-c', sql]);
    const broken = await verify();
    expect(broken.problems.length).toBeGreaterThan(0);
    expect(broken.problems.every((p) => p.kind === 'lexical' && p.version_id === versions[1])).toBe(true);
    const repaired = await verify('--repair');
    expect(repaired.problems).toEqual([]);
    expect((await engine.search('table', { k: 20 })).hits.map((h) => [h.chunk_id, h.scores])).toEqual(before);
  }, 30_000);

  it('names the version whose original on the shared volume had one byte flipped', async () => {
    const original = await engine.ports.metadata.getArtifact(versions[0] as string, 'original');
    const path = join(blobDir, original?.blob_key ?? '');
    const bytes = readFileSync(path);
    bytes[10] = (bytes[10] as number) ^ 0x01;
    writeFileSync(path, bytes);
    const report = await verify();
    expect(report.problems).toEqual([expect.objectContaining({ kind: 'blob', version_id: versions[0] })]);
  }, 30_000);
});
