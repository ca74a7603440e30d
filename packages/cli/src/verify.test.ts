import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIXED_FILES, openTestEngine, uploadFiles } from '../test/data-folder-fixture.js';
import { loadCliConfig } from './config.js';
import { runMaintenance } from './maintenance.js';

const QUERIES = ['page', 'table title', 'word sample formatting'];

async function ingested(dataDir: string): Promise<string[]> {
  const engine = openTestEngine(dataDir);
  engine.startWorker();
  try {
    return (await engine.waitForVersions(await uploadFiles(engine, MIXED_FILES), { timeoutMs: 60_000 })).map((v) => v.version_id);
  } finally {
    await engine.close();
  }
}

async function searchAll(dataDir: string): Promise<unknown[]> {
  const engine = openTestEngine(dataDir);
  try {
    const out: unknown[] = [];
    for (const q of QUERIES) out.push((await engine.search(q, { k: 20 })).hits.map((h) => [h.chunk_id, h.scores]));
    return out;
  } finally {
    await engine.close();
  }
}

/** `pinpoint verify` as typed, with its exit code and printed report. */
async function verify(dataDir: string, ...flags: string[]): Promise<{ code: number | null; out: string }> {
  const lines: string[] = [];
  const code = await runMaintenance(loadCliConfig(['verify', '--data-dir', dataDir, ...flags], {}), (l) => lines.push(l));
  return { code, out: lines.join('\n') };
}

describe('pinpoint verify', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 1 naming the version whose stored original had one byte flipped', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-verify-'));
    const data = join(dir, 'data');
    const [versionId] = await ingested(data);
    expect(await verify(data)).toMatchObject({ code: 0 });
    const db = new Database(join(data, 'metadata.db'), { readonly: true });
    const { blob_key } = db
      .prepare("SELECT blob_key FROM artifacts WHERE version_id = ? AND kind = 'original'")
      .get(versionId) as { blob_key: string };
    db.close();
    const path = join(data, 'blobs', blob_key);
    const bytes = readFileSync(path);
    bytes[Math.floor(bytes.length / 2)] = (bytes[Math.floor(bytes.length / 2)] as number) ^ 0x01;
    writeFileSync(path, bytes);
    const { code, out } = await verify(data, '--json');
    expect(code).toBe(1);
    const report = JSON.parse(out) as { problems: { kind: string; version_id?: string; message: string }[] };
    expect(report.problems).toEqual([expect.objectContaining({ kind: 'blob', version_id: versionId })]);
    expect(report.problems[0]?.message).toMatch(/original .* is altered/);
    // repair rebuilds what is derived; it never rewrites or deletes an original
    expect((await verify(data, '--repair')).code).toBe(1);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  }, 30_000);

  it('names a deleted lexical segment, and --repair restores identical search results', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-verify-'));
    const data = join(dir, 'data');
    await ingested(data);
    const before = await searchAll(data);
    const db = new Database(join(data, 'lexical.db'));
    const seg = db.prepare('SELECT seg FROM lex_segments LIMIT 1').pluck().get() as number;
    db.exec(`DROP TABLE lex_seg_${seg}`);
    db.close();
    const broken = await verify(data);
    expect(broken.code).toBe(1);
    expect(broken.out).toContain(`lexical segment ${seg} (table lex_seg_${seg}`);
    const repaired = await verify(data, '--repair');
    expect(repaired).toMatchObject({ code: 0 });
    expect(repaired.out).toContain('rebuilt the lexical index');
    expect(await searchAll(data)).toEqual(before);
    // a segment's table of long lists' parts is as much a part of it
    const again = new Database(join(data, 'lexical.db'));
    const other = again.prepare('SELECT seg FROM lex_segments LIMIT 1').pluck().get() as number;
    again.exec(`DROP TABLE lex_seg_${other}_parts`);
    again.close();
    const partless = await verify(data);
    expect(partless.code).toBe(1);
    expect(partless.out).toContain(`lexical segment ${other} (table lex_seg_${other}_parts`);
    // and its table of lists of one block
    expect((await verify(data, '--repair')).code).toBe(0);
    const third = new Database(join(data, 'lexical.db'));
    const short = third.prepare('SELECT seg FROM lex_segments LIMIT 1').pluck().get() as number;
    third.exec(`DROP TABLE lex_short_${short}`);
    third.close();
    const shortless = await verify(data);
    expect(shortless.code).toBe(1);
    expect(shortless.out).toContain(`lexical segment ${short} (table lex_short_${short}`);
  }, 30_000);
});
