import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rawTextIn } from '@pinpoint/parsers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import { openTestEngine } from './test-engine.js';

const hostileDir = fileURLToPath(new URL('../../../../shared/corpus/hostile/', import.meta.url));
const hostile = readdirSync(hostileDir)
  .filter((f) => !f.endsWith('.md'))
  .sort();

let engine: Engine;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ engine, close } = openTestEngine('pp-hostile-'));
  // a first parse starts the warm parse process the timings below are measured against
  const collection = await engine.ensureCollection('warm-up');
  const [warm] = await engine.upload(collection.collection_id, [
    { name: 'warm.txt', bytes: new TextEncoder().encode('A first file starts the parse process.') },
  ]);
  await engine.waitForVersions([warm?.version.version_id ?? ''], { timeoutMs: 60_000 });
}, 70_000);

afterAll(() => close());

describe('hostile files (shared/corpus/hostile)', () => {
  it('the raw-text deny-list recognises the messages these files used to produce', () => {
    for (const seen of [
      'x.docx is not a readable Word document (Maximum call stack size exceeded); open and re-save it in Word.',
      'error: [xmldom error]\telement parse error: Error: invalid attribute:1.0\n@#[line:undefined,col:undefined]',
      "The workbook could not be read (Cannot read properties of undefined (reading 'data')); it may be damaged.",
      'is not a readable Word document (Bug : uncompressed data size mismatch)',
      'The workbook could not be read (Unsupported ZIP Compression method NaN); it may be damaged.',
    ]) {
      expect(rawTextIn(seen), seen).toBeDefined();
    }
    expect(rawTextIn('The workbook is damaged: a compressed part does not match its checksum.')).toBeUndefined();
  });

  it.each(hostile)(
    '%s fails fast with a stable code and a message of our own',
    async (file) => {
      const collection = await engine.ensureCollection('hostile');
      const bytes = new Uint8Array(readFileSync(join(hostileDir, file)));
      const started = performance.now();
      const [uploaded] = await engine.upload(collection.collection_id, [{ name: file, bytes }]);
      const [version] = await engine.waitForVersions([uploaded?.version.version_id ?? ''], { timeoutMs: 60_000 });
      const seconds = (performance.now() - started) / 1000;
      expect(version?.state).toBe('failed');
      expect(version?.error_code).toBe('PP_PARSE_CORRUPT');
      expect(rawTextIn(version?.error_message ?? 'undefined'), version?.error_message ?? '').toBeUndefined();
      expect(seconds).toBeLessThan(file.endsWith('.xlsx') ? 2 : 5);
    },
    70_000,
  );

  it('keeps the library text for administrators in the failed version diagnostics', async () => {
    const collection = await engine.ensureCollection('hostile-detail');
    const file = 'm352_trunc_docling__legacy_sample.xls';
    const bytes = new Uint8Array(readFileSync(join(hostileDir, file)));
    const [uploaded] = await engine.upload(collection.collection_id, [{ name: file, bytes }]);
    const [version] = await engine.waitForVersions([uploaded?.version.version_id ?? ''], { timeoutMs: 60_000 });
    expect(version?.diagnostics).toEqual([
      expect.objectContaining({ rule_id: 'ingest/failure-detail', severity: 'error', reason: expect.stringMatching(/data/) }),
    ]);
  }, 70_000);
});
