import { describe, expect, it } from 'vitest';
import { readShared } from '../test/test-support.js';
import { parseIsolated } from './isolate.js';
import { parseDocument } from './parse.js';

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
    const half = tracemonkey.slice(0, tracemonkey.byteLength >> 1);
    await expect(parseIsolated(half, { fileName: 'half.pdf', format: 'pdf' }, limits)).rejects.toMatchObject({
      code: 'PP_PARSE_CORRUPT',
    });
    await parseIsolated(txt, { fileName: 'e.txt', format: 'txt' }, limits);
    // clean answers, a damaged file's error included, leave the child warm for the next parse
    expect(new Set(pids).size).toBe(1);
    const stopped = parseIsolated(bigText, { fileName: 'slow.txt', format: 'txt' }, { ...limits, timeoutMs: 50 });
    await expect(stopped).rejects.toMatchObject({ code: 'PP_PARSE_TIMEOUT' });
    const killed = pids.at(-1) as number;
    await parseIsolated(txt, { fileName: 'd.txt', format: 'txt' }, limits);
    expect(pids.at(-1)).not.toBe(killed);
    await expect.poll(() => isRunning(killed), { timeout: 5000 }).toBe(false);
  });

  it('two parses that end together leave both children warm for the next two', async () => {
    const txt = readShared('eval/squad2-dev/docs/004_1973_oil_crisis.txt');
    const pids = new Set<number>();
    const limits = { timeoutMs: 60_000, maxOldSpaceMb: 300, onSpawn: (pid: number) => pids.add(pid) };
    for (let round = 0; round < 3; round++) {
      await Promise.all(['a.txt', 'b.txt'].map((fileName) => parseIsolated(txt, { fileName, format: 'txt' }, limits)));
    }
    // with a pool of two, one of them was killed each round and a fresh child started for the next
    expect(pids.size).toBe(2);
  });

  it('a PDF read in page ranges by two children comes out exactly as one parse of the whole', async () => {
    // small ranges, so that corpus PDFs of every kind are split (the default is 32 pages)
    for (const [name, rangePages] of [
      ['pdfjs__tracemonkey.pdf', 3],
      ['unstructured__failure-after-repair.pdf', 8],
      ['pdfjs__vertical.pdf', 1],
      ['pdfminer__pagelabels.pdf', 1],
    ] as const) {
      const bytes = readShared(`corpus/formats/pdf/${name}`);
      const pids = new Set<number>();
      const limits = {
        timeoutMs: 300_000,
        maxOldSpaceMb: 1024,
        maxChildren: 2,
        rangePages,
        onSpawn: (pid: number) => pids.add(pid),
      };
      const split = await parseIsolated(bytes, { fileName: name, format: 'pdf' }, limits);
      const whole = await parseDocument(bytes, { fileName: name, format: 'pdf' });
      expect(pids.size, name).toBe(2);
      // element text, pages, boxes and spans, the page list and the diagnostics: all equal
      expect(split.elements.length).toBe(whole.elements.length);
      expect(split.elements).toEqual(whole.elements);
      expect(split.sourceMap).toEqual(whole.sourceMap);
      expect(split.diagnostics).toEqual(whole.diagnostics);
    }
  }, 600_000);

  it('one child never takes a second while the budget is one', async () => {
    const bytes = readShared('corpus/formats/pdf/unstructured__failure-after-repair.pdf');
    const pids = new Set<number>();
    const limits = {
      timeoutMs: 300_000,
      maxOldSpaceMb: 1024,
      maxChildren: 1,
      rangePages: 8,
      onSpawn: (pid: number) => pids.add(pid),
    };
    const out = await parseIsolated(bytes, { fileName: 'repair.pdf', format: 'pdf' }, limits);
    expect(out.sourceMap.pages).toHaveLength(76);
    expect(pids.size).toBe(1);
  }, 300_000);

  it('a range whose child dies fails the parse with the code of the death and the pages it was reading', async () => {
    const bytes = readShared('corpus/formats/pdf/unstructured__DA-619p.pdf');
    const pids: number[] = [];
    const run = parseIsolated(
      bytes,
      { fileName: 'da.pdf', format: 'pdf' },
      { timeoutMs: 300_000, maxOldSpaceMb: 1024, maxChildren: 2, onSpawn: (pid) => pids.push(pid) },
    );
    // the second child joins once the first has opened the document and reads its first range
    await expect.poll(() => pids.length, { timeout: 60_000, interval: 20 }).toBe(2);
    process.kill(pids[0] as number, 'SIGKILL');
    const err = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'PP_PARSE_CRASHED', message: expect.stringMatching(/pages \d+–\d+ of da\.pdf/) });
    for (const pid of pids) await expect.poll(() => isRunning(pid), { timeout: 5000 }).toBe(false);
  }, 300_000);
});
