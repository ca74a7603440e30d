import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Answer } from '@pinpoint/core';
import type { Engine } from '@pinpoint/engine';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { answerFingerprint, openTestEngine } from '../test/data-folder-fixture.js';
import { loadCliConfig } from './config.js';
import { verifyDataFolder } from './verify.js';

/**
 * Data folders written by earlier releases (COMMIT in each) with scripts/make-upgrade-fixture.sh, with
 * that release's answers (`pinpoint ask --json`) to test/upgrade-questions.txt: the release of 1 Dec,
 * and one of 29 Nov, before the metadata's migrations 2–3 and two lexical index layouts.
 */
const fixture = (name: string) => fileURLToPath(new URL(`../test/fixtures/${name}`, import.meta.url));

function earlierAnswers(name: string): Answer[] {
  const lines = readFileSync(join(fixture(name), 'answers.jsonl'), 'utf8')
    .trim()
    .split('\n');
  return lines.map((line) => JSON.parse(line) as Answer);
}

/** Opens a copy of the fixture with this build, runs `check` on it, then verifies the folder. */
async function upgraded(dir: string, name: string, check: (engine: Engine) => Promise<void>): Promise<string> {
  const data = join(dir, 'data');
  cpSync(fixture(name), data, { recursive: true });
  const engine = openTestEngine(data);
  try {
    expect((await engine.ports.metadata.listVersions()).map((v) => v.state)).toEqual(['ready', 'ready', 'ready']);
    await check(engine);
  } finally {
    await engine.close();
  }
  const report = await verifyDataFolder(loadCliConfig(['verify', '--data-dir', data], {}), { repair: false, progress: () => {} });
  expect(report.problems).toEqual([]);
  return data;
}

describe('a data folder written by an earlier release', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('of 1 Dec opens with this build and answers the same questions the same way, with the same citations', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-upgrade-'));
    await upgraded(dir, 'data-2026-12-01', async (engine) => {
      for (const before of earlierAnswers('data-2026-12-01')) {
        expect(answerFingerprint(await engine.ask(before.question))).toEqual(answerFingerprint(before));
      }
    });
  }, 30_000);

  it('of 29 Nov migrates, answers and refuses the same questions, citing the same places, every citation resolving', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-upgrade-'));
    const data = await upgraded(dir, 'data-2026-11-29', async (engine) => {
      for (const before of earlierAnswers('data-2026-11-29')) {
        const now = await engine.ask(before.question);
        // the answer's wording comes from this build's answerer (it changed since); what it stands on must not
        expect(now.refused).toBe(before.refused);
        expect(now.citations[0]?.chunk_id).toBe(before.citations[0]?.chunk_id);
        expect(now.citations[0]?.anchor).toEqual(before.citations[0]?.anchor);
        for (const c of now.citations) {
          const view = await engine.resolveCitation({
            version_id: c.version_id,
            chunk_id: c.chunk_id,
            element_id: c.element_id,
            anchor: c.anchor,
          });
          expect(view.precision).not.toBe('unresolved');
        }
      }
    });
    const db = new Database(join(data, 'metadata.db'), { readonly: true });
    // migrated to this build's latest metadata migration (4: the document identity of each version)
    expect(db.prepare("SELECT max(id) FROM migrations WHERE scope = 'metadata'").pluck().get()).toBe(4);
    db.close();
  }, 30_000);
});
