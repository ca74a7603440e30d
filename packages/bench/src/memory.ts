import type { ParseUsage } from '@pinpoint/parsers';
import { parseIsolated } from '@pinpoint/parsers';
import type { LongLineFormat } from '@pinpoint/testing';
import { longLineFormats, longLineSample } from '@pinpoint/testing';

const MB = 1024 * 1024;

/**
 * Parse peak memory per MB of input for each text format, on a generated file of `mb` MB that is
 * one single line (the hardest shape for line-oriented parsers), through the isolated parse
 * process with the default limits (1024 MB heap, 120 s). Growth is the parse process's peak RSS
 * during the parse minus its RSS before it (the warm process with the parsers loaded).
 */
export async function benchParseMemory(mb: number): Promise<void> {
  console.log(`parse memory on ${mb} MB single-line files (isolated parse process, default limits):`);
  console.log('  format      state    seconds  RSS before  peak RSS  growth  growth/MB  peak/MB');
  const samples: Array<[string, LongLineFormat, Uint8Array]> = longLineFormats.map((f) => [f, f, longLineSample(f, mb * MB)]);
  // the costliest shape per byte: one CSV record of a million one-letter cells ("A,A,A,…", 2 MB)
  samples.push(['csv-cells', 'csv', new TextEncoder().encode(Array.from({ length: 1_000_000 }, () => 'A').join(','))]);
  for (const [label, format, bytes] of samples) {
    let memory: ParseUsage = { rssBefore: 0, peakRss: 0, cpuMs: 0 };
    const started = performance.now();
    let state = 'ready';
    try {
      await parseIsolated(
        bytes,
        { fileName: `one-line.${format}`, format },
        { timeoutMs: 120_000, maxOldSpaceMb: 1024, onUsage: (m) => (memory = m) },
      );
    } catch (err) {
      state = (err as { code?: string }).code ?? 'failed';
    }
    const seconds = (performance.now() - started) / 1000;
    const size = bytes.byteLength / MB;
    const growth = Math.max(0, memory.peakRss - memory.rssBefore) / MB;
    const cells = [
      label.padEnd(9),
      state.padEnd(8),
      seconds.toFixed(1).padStart(7),
      `${(memory.rssBefore / MB).toFixed(0)} MB`.padStart(10),
      `${(memory.peakRss / MB).toFixed(0)} MB`.padStart(9),
      `${growth.toFixed(0)} MB`.padStart(7),
      `${(growth / size).toFixed(1)}×`.padStart(9),
      `${(memory.peakRss / MB / size).toFixed(1)}×`.padStart(8),
    ];
    console.log(`  ${cells.join(' ')}`);
  }
}
