import { describe, expect, it } from 'vitest';
import { readShared } from '../test/test-support.js';
import { parseIsolated } from './isolate.js';

const tracemonkey = readShared('corpus/formats/pdf/pdfjs__tracemonkey.pdf');
const bigText = readShared('corpus/formats/txt/unstructured__book-war-and-peace-1225p.txt');

/** Whether the process runs (a killed child is gone once reaped). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('parseIsolated', () => {
  it('returns the parse output with its artifacts across the process boundary', async () => {
    const out = await parseIsolated(
      readShared('eval/squad2-dev/docs/004_1973_oil_crisis.txt'),
      { fileName: 'oil.txt', format: 'txt' },
      { timeoutMs: 60_000, maxOldSpaceMb: 256 },
    );
    expect(out.elements.length).toBeGreaterThan(3);
    expect(out.artifacts[0]?.bytes).toBeInstanceOf(Uint8Array);
  });

  it('keeps the PP_ code of an error thrown in the child', async () => {
    const half = tracemonkey.slice(0, tracemonkey.byteLength >> 1);
    await expect(
      parseIsolated(half, { fileName: 'half.pdf', format: 'pdf' }, { timeoutMs: 60_000, maxOldSpaceMb: 256 }),
    ).rejects.toMatchObject({
      code: 'PP_PARSE_CORRUPT',
    });
  });

  it('a hang, an out-of-memory death and a crash each fail only their own parse', async () => {
    const ok = parseIsolated(tracemonkey, { fileName: 'tm.pdf', format: 'pdf' }, { timeoutMs: 60_000, maxOldSpaceMb: 512 });
    const hang = parseIsolated(bigText, { fileName: 'slow.txt', format: 'txt' }, { timeoutMs: 100, maxOldSpaceMb: 512 });
    const oom = parseIsolated(bigText, { fileName: 'big.txt', format: 'txt' }, { timeoutMs: 60_000, maxOldSpaceMb: 16 });
    const crash = parseIsolated(
      tracemonkey,
      { fileName: 'crash.pdf', format: 'pdf' },
      {
        timeoutMs: 60_000,
        maxOldSpaceMb: 512,
        onSpawn: (pid) => process.kill(pid, 'SIGSEGV'),
      },
    );
    const [okR, hangR, oomR, crashR] = await Promise.allSettled([ok, hang, oom, crash]);
    expect(okR.status === 'fulfilled' && okR.value.elements.length).toBeGreaterThan(100);
    expect(hangR).toMatchObject({ status: 'rejected', reason: { code: 'PP_PARSE_TIMEOUT' } });
    expect(oomR).toMatchObject({ status: 'rejected', reason: { code: 'PP_PARSE_MEMORY' } });
    expect(crashR).toMatchObject({ status: 'rejected', reason: { code: 'PP_PARSE_CRASHED' } });
  });

  it('aborting the signal kills the child', async () => {
    const controller = new AbortController();
    const run = parseIsolated(
      tracemonkey,
      { fileName: 'tm.pdf', format: 'pdf' },
      { timeoutMs: 60_000, maxOldSpaceMb: 256, signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    await expect(run).rejects.toMatchObject({ code: 'PP_JOB_CANCELLED' });
  });

  it('a child that answered cleanly serves the next parse; one that was stopped never does', async () => {
    const txt = readShared('eval/squad2-dev/docs/004_1973_oil_crisis.txt');
    const pids: number[] = [];
    const limits = { timeoutMs: 60_000, maxOldSpaceMb: 300, onSpawn: (pid: number) => pids.push(pid) };
    await parseIsolated(txt, { fileName: 'a.txt', format: 'txt' }, limits);
    await parseIsolated(txt, { fileName: 'b.txt', format: 'txt' }, limits);
    await expect(parseIsolated(new Uint8Array(), { fileName: 'c.txt', format: 'txt' }, limits)).rejects.toMatchObject({
      code: 'PP_EMPTY_FILE',
    });
    // clean answers, errors included, leave the child warm for the next parse
    expect(new Set(pids).size).toBe(1);
    const stopped = parseIsolated(bigText, { fileName: 'slow.txt', format: 'txt' }, { ...limits, timeoutMs: 50 });
    await expect(stopped).rejects.toMatchObject({ code: 'PP_PARSE_TIMEOUT' });
    const killed = pids.at(-1) as number;
    await parseIsolated(txt, { fileName: 'd.txt', format: 'txt' }, limits);
    expect(pids.at(-1)).not.toBe(killed);
    await expect.poll(() => isRunning(killed), { timeout: 5000 }).toBe(false);
  });
});
