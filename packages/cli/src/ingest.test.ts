import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultEngineConfig } from '@pinpoint/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { openEmbeddedEngine } from './embedded.js';
import { ingestFiles } from './ingest.js';

describe('ingestFiles', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('queues the largest file first when asked, so the longest parse does not start last', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-ingest-'));
    const names = ['small.txt', 'large.txt', 'medium.txt'];
    const words = { 'small.txt': 20, 'large.txt': 2000, 'medium.txt': 200 };
    for (const name of names)
      writeFileSync(join(dir, name), `${'Rain falls on the plain. '.repeat(words[name as keyof typeof words])}\n`);
    const engine = openEmbeddedEngine(join(dir, 'data'), {
      ...defaultEngineConfig,
      parse: { ...defaultEngineConfig.parse, isolate: false },
    });
    try {
      // one worker settles the files in the order they were queued
      const lines = await ingestFiles(
        engine,
        'c',
        names.map((n) => join(dir, n)),
        () => {},
        { concurrency: 1, largestFirst: true },
      );
      expect(lines.map((l) => [l.file, l.state])).toEqual([
        ['large.txt', 'ready'],
        ['medium.txt', 'ready'],
        ['small.txt', 'ready'],
      ]);
    } finally {
      await engine.close();
    }
  });
});
