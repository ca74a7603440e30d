import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';

/** What a figure was measured on: enough to tell two machines apart and to judge how busy it was. */
export interface MachineInfo {
  cpu: string;
  cores: number;
  memory_gib: number;
  os: string;
  node: string;
  /** 1-minute load average when the result was written: a busy machine makes timings noisy. */
  load_average: number;
}

export function machineInfo(): MachineInfo {
  const cores = cpus();
  return {
    cpu: (cores[0]?.model ?? 'unknown').replace(/\s+/g, ' ').trim(),
    cores: cores.length,
    memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${process.platform} ${release()}`,
    node: process.version,
    load_average: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

/** The commit measured, and whether the work tree differed from it. */
export function gitCommit(cwd: string): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd, encoding: 'utf8' });
    // Result files themselves do not make a measured tree dirty.
    const dirty = status.split('\n').some((l) => l.trim() !== '' && !/\sresults\//.test(l) && !/docs\/benchmarks\.md$/.test(l));
    return { commit, dirty };
  } catch {
    return { commit: 'unknown', dirty: false };
  }
}
