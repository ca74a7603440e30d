import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { longLineFormats, longLineSample } from '@pinpoint/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import { openTestEngine } from './test-engine.js';

const MB = 1024 * 1024;
let dir: string;
let engine: Engine;
let close: () => Promise<void>;

beforeAll(() => {
  ({ engine, dir, close } = openTestEngine('pp-long-lines-'));
});

afterAll(() => close());

describe('a 20 MB file that is one single line', () => {
  it.each(longLineFormats)(
    '.%s ingests ready within the default parse limits',
    async (format) => {
      const path = join(dir, `one-line.${format}`);
      writeFileSync(path, longLineSample(format, 20 * MB));
      const bytes = new Uint8Array(readFileSync(path));
      expect(bytes.includes(0x0a)).toBe(false);
      const collection = await engine.ensureCollection('long-lines');
      const [uploaded] = await engine.upload(collection.collection_id, [{ name: `one-line.${format}`, bytes }]);
      const [version] = await engine.waitForVersions([uploaded?.version.version_id ?? ''], { timeoutMs: 580_000 });
      expect(version?.error_message ?? null).toBeNull();
      expect(version?.state).toBe('ready');
      expect(version?.stats.chunks).toBeGreaterThan(1000);
    },
    600_000,
  );
});
