import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Dataset, EvalQuestion } from './dataset.js';
import { loadDataset } from './dataset.js';

/** How many questions of the other set are asked as off-topic ones. */
export const OFFTOPIC_QUESTIONS = 100;

/**
 * An off-topic set built from two existing ones: the documents and answerable questions of `base`,
 * plus answerable questions of `other` (about articles `base` does not hold) that must now be
 * refused — the everyday case of a question the documents never mention. Deterministic: the
 * other set's answerable questions are taken evenly spread, and an article both sets hold is
 * skipped. Writes `docs/` (links to base's files) and `questions.jsonl` into `dir`.
 */
export function writeOfftopicDataset(baseDir: string, otherDir: string, dir: string, count = OFFTOPIC_QUESTIONS): Dataset {
  const base = loadDataset(baseDir);
  const other = loadDataset(otherDir);
  const title = (file: string): string => file.replace(/\.[^.]+$/u, '').replace(/^\d+_/u, '');
  const held = new Set(base.files.map((f) => title(f.name)));
  const pool = other.questions.filter((q) => q.answerable && !q.gold.some((g) => held.has(title(g.file))));
  const n = Math.min(count, pool.length);
  const offtopic: EvalQuestion[] = Array.from(
    { length: n },
    (_, i) => pool[Math.floor((i * pool.length) / n)] as EvalQuestion,
  ).map((q) => ({ ...q, id: `off-${basename(other.path)}-${q.id}`, answerable: false, answers: [], gold: [] }));
  const questions = [...base.questions.filter((q) => q.answerable), ...offtopic];
  mkdirSync(join(dir, 'docs'), { recursive: true });
  for (const f of base.files) symlinkSync(f.path, join(dir, 'docs', f.name));
  writeFileSync(join(dir, 'questions.jsonl'), `${questions.map((q) => JSON.stringify(q)).join('\n')}\n`);
  return loadDataset(dir);
}
