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
