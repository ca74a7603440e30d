import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

export function percentiles(values: number[]): Percentiles {
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
  const r = (x: number) => Math.round(x * 100) / 100;
  return { p50: r(at(50)), p95: r(at(95)), p99: r(at(99)) };
}

/** CPU milliseconds of this process since `from` (a `process.cpuUsage()`). */
export function cpuMs(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
}

/** Questions of the dev sets (English, Japanese, Chinese), interleaved: what every scale run asks. */
export function scaleQuestions(shared: string, count: number): string[] {
  const sets = ['squad2-dev', 'jsquad-dev', 'drcd-dev'].map((set) =>
    readFileSync(join(shared, 'eval', set, 'questions.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { question: string }).question),
  );
  const out: string[] = [];
  for (let i = 0; out.length < count && i < 10_000; i++)
    for (const s of sets) if (s[i] && out.length < count) out.push(s[i] as string);
  return out;
}
