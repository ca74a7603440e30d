import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createError } from '@pinpoint/core';
import type { GoldRef } from './relevance.js';

/** One line of questions.jsonl (DESIGN.md §6). */
export interface EvalQuestion {
  id: string;
  question: string;
  lang: string;
  answerable: boolean;
  answers: string[];
  gold: GoldRef[];
}

export interface Dataset {
  path: string;
  /** sha256 over questions.jsonl, then every file of docs/ in sorted name order. */
  sha256: string;
  questions: EvalQuestion[];
  files: { path: string; name: string }[];
}

export function loadDataset(dir: string): Dataset {
  const path = resolve(dir);
  let raw: Buffer;
  let names: string[];
  try {
    raw = readFileSync(join(path, 'questions.jsonl'));
    names = readdirSync(join(path, 'docs')).sort();
  } catch (err) {
    throw createError('PP_CONFIG_INVALID', `${path} is not an eval dataset: it needs docs/ and questions.jsonl.`, err);
  }
  const hash = createHash('sha256').update(raw);
  const files = names.map((name) => ({ path: join(path, 'docs', name), name }));
  for (const f of files) hash.update(readFileSync(f.path));
  const questions = raw
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as EvalQuestion);
  return { path, sha256: hash.digest('hex'), questions, files };
}
