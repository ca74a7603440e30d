import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../bin/pinpoint.mjs', import.meta.url));
const doc = fileURLToPath(new URL('../../../../shared/eval/jsquad-dev/docs/000_梅雨.md', import.meta.url));

describe('pinpoint --json (DESIGN.md §7)', () => {
  let dir: string;
  const env = (): NodeJS.ProcessEnv => ({
    ...process.env,
    PINPOINT_DATA_DIR: join(dir, 'data'),
    PINPOINT_PARSE_ISOLATE: 'false',
    INIT_CWD: dir,
  });
  const pinpoint = async (...args: string[]) => run(process.execPath, [bin, ...args], { env: env(), cwd: dir });
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ingest prints one line per settled file, failed files included, and exits 0', async () => {
    writeFileSync(join(dir, 'empty.md'), '');
    const { stdout } = await pinpoint('ingest', doc, 'empty.md', '--json');
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const byFile = Object.fromEntries(lines.map((l) => [l.file, l]));
    expect(byFile['000_梅雨.md']).toMatchObject({
      state: 'ready',
      format: 'md',
      diagnostics: [],
      elements: expect.any(Number),
      chunks: expect.any(Number),
    });
    expect(Object.keys(byFile['000_梅雨.md']).sort()).toEqual(
      ['chunks', 'diagnostics', 'document_id', 'elements', 'file', 'format', 'seconds', 'state', 'version_id'].sort(),
    );
    expect(byFile['empty.md']).toMatchObject({ state: 'failed', error_code: 'PP_EMPTY_FILE', message: expect.any(String) });
  }, 180_000);

  it('ask prints the answer object; status prints collections, documents, versions and jobs', async () => {
    const ask = JSON.parse((await pinpoint('ask', '春が終わりに差し掛かる頃に南シナ海付近にある気団は何か？', '--json')).stdout);
    expect(ask).toMatchObject({
      refused: expect.any(Boolean),
      answer: expect.any(String),
      citations: expect.any(Array),
      retrieved: expect.any(Array),
    });
    expect(ask.retrieved[0]).toMatchObject({ rank: 1, file: '000_梅雨.md', scores: { lexical: expect.any(Number) } });
    const status = JSON.parse((await pinpoint('status', '--json')).stdout);
    expect(status.versions.map((v: { state: string }) => v.state).sort()).toEqual(['failed', 'ready']);
    expect(status.jobs).toHaveLength(2);
  }, 180_000);
});
