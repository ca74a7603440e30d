import { readFileSync, writeFileSync } from 'node:fs';
import type { ParseMemory } from './isolate.js';

/** VmHWM of this process in bytes (Linux), 0 elsewhere. */
function highWaterMark(): number {
  try {
    const kb = /VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Peak resident memory of one parse in the (reused) child: the kernel's high-water mark is reset to
 * the current RSS before the parse (`5` → /proc/self/clear_refs) and read after it.
 */
export async function measurePeak<T>(run: () => Promise<T>): Promise<{ result: T; memory: ParseMemory }> {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // not Linux, or not allowed: the peak is then the process's lifetime peak
  }
  const rssBefore = process.memoryUsage().rss;
  const result = await run();
  return { result, memory: { rssBefore, peakRss: Math.max(highWaterMark(), process.memoryUsage().rss) } };
}
