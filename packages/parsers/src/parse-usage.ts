import { readFileSync, writeFileSync } from 'node:fs';
import type { ParseUsage } from './isolate.js';

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
 * Peak resident memory and CPU time of one parse in the (reused) child: the kernel's high-water mark
 * is reset to the current RSS before the parse (`5` → /proc/self/clear_refs) and read after it.
 */
export async function measureUsage<T>(run: () => Promise<T>): Promise<{ result: T; usage: ParseUsage }> {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // not Linux, or not allowed: the peak is then the process's lifetime peak
  }
  const rssBefore = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(cpu);
  const peakRss = Math.max(highWaterMark(), process.memoryUsage().rss);
  return { result, usage: { rssBefore, peakRss, cpuMs: (used.user + used.system) / 1000 } };
}
