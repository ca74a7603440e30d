import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Answer } from '@pinpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { answerFingerprint, openTestEngine } from '../test/data-folder-fixture.js';
import { loadCliConfig } from './config.js';
import { verifyDataFolder } from './verify.js';

// Written by the release of 1 December 2026 (COMMIT in the folder) with scripts/make-upgrade-fixture.sh,
// with that release's answers (`pinpoint ask --json`) to test/upgrade-questions.txt.
const fixture = fileURLToPath(new URL('../test/fixtures/data-2026-12-01', import.meta.url));

describe('a data folder written by an earlier release', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('opens with this build, migrates, verifies clean and answers the same questions the same way', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-upgrade-'));
    const data = join(dir, 'data');
    cpSync(fixture, data, { recursive: true });
    const earlier = readFileSync(join(fixture, 'answers.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Answer);
    const engine = openTestEngine(data);
    try {
      expect((await engine.ports.metadata.listVersions()).map((v) => v.state)).toEqual(['ready', 'ready', 'ready']);
      for (const before of earlier) {
        expect(answerFingerprint(await engine.ask(before.question))).toEqual(answerFingerprint(before));
      }
    } finally {
      await engine.close();
    }
    const report = await verifyDataFolder(loadCliConfig(['verify', '--data-dir', data], {}), {
      repair: false,
      progress: () => {},
    });
    expect(report.problems).toEqual([]);
  }, 30_000);
});
