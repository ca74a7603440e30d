import { readdirSync, readFileSync } from 'node:fs';
import { commandLine, recordResult } from '@pinpoint/results';

/** Writes one result file of a bench run; returns its path. */
export type Recorder = (area: string, name: string, metrics: object) => string;

/**
 * The recorder of `pnpm bench … --record`: each file carries the command as typed (`pnpm bench <args>`),
 * the commit, the machine and its load, and `note` when given (`--note`, e.g. how busy the machine was).
 * `dir` is the results folder (default: the repository's `results/`).
 */
export function benchRecorder(args: readonly string[], options: { note?: string; dir?: string } = {}): Recorder {
  const command = commandLine('bench', args);
  return (area, name, metrics) =>
    recordResult({
      area,
      name,
      command,
      metrics,
      ...(options.note ? { note: options.note } : {}),
      ...(options.dir ? { dir: options.dir } : {}),
    });
}

/** Rounds a figure for a result file: `digits` decimals (2 by default). */
export const round = (x: number, digits = 2): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** utime, stime, cutime, cstime of a process in seconds (after the command name: fields 14–17, indexes 11–14). */
function procTimes(pid: number | 'self'): number[] {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return [11, 12, 13, 14].map((i) => Number(fields[i] ?? 0) / 100);
  } catch {
    return [0, 0, 0, 0];
  }
}

/** The live processes below `pid` (children, their children, …), from /proc/<pid>/task/<tid>/children. */
function liveDescendants(pid: number | 'self'): number[] {
  let children: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`))
      children = children.concat(
        readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
      );
  } catch {}
  return children.flatMap((c) => [c, ...liveDescendants(c)]);
}

/**
 * CPU seconds of this process and everything below it, from /proc (Linux): its own time, the reaped
 * children's (pdftoppm, tesseract), and the time of the processes still alive (the warm parse processes).
 */
export function cpuSecondsWithChildren(): number {
  const own = process.cpuUsage();
  const [, , cutime = 0, cstime = 0] = procTimes('self');
  const below = liveDescendants('self').reduce((sum, pid) => sum + procTimes(pid).reduce((a, b) => a + b, 0), 0);
  return (own.user + own.system) / 1e6 + cutime + cstime + below;
}
