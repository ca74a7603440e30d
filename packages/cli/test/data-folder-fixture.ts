import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Answer } from '@pinpoint/core';
import type { Engine } from '@pinpoint/engine';
import { defaultEngineConfig } from '@pinpoint/engine';
import { openEmbeddedEngine } from '../src/embedded.js';

export const corpusFile = (path: string): string =>
  fileURLToPath(new URL(`../../../../shared/corpus/formats/${path}`, import.meta.url));

/** A PDF, a DOCX and an XLSX of the shared corpus: small, so a test ingests them in seconds. */
export const MIXED_FILES = [
  'pdf/docling__multi_page.pdf',
  'docx/docling__word_sample.docx',
  'xlsx/docling__xlsx_05_table_with_title.xlsx',
].map(corpusFile);
export const MORE_FILES = ['pdf/docling__normal_4pages.pdf', 'docx/docling__word_tables.docx'].map(corpusFile);

const QUESTIONS = ['What is on the first page?', 'Which table has a title?', 'What does the word sample say about formatting?'];

export function openTestEngine(dataDir: string): Engine {
  return openEmbeddedEngine(dataDir, { ...defaultEngineConfig, parse: { ...defaultEngineConfig.parse, isolate: false } });
}

/** Uploads files into the collection `c` (created when absent); returns the new versions' ids. */
export async function uploadFiles(engine: Engine, files: string[]): Promise<string[]> {
  const existing = (await engine.listCollections()).find((c) => c.name === 'c');
  const collection = existing ?? (await engine.createCollection('c'));
  const results = await engine.upload(
    collection.collection_id,
    files.map((f) => ({ name: basename(f), bytes: new Uint8Array(readFileSync(f)) })),
  );
  return results.map((r) => r.version.version_id);
}

/** What must not change across a backup and restore: the answer, its citations, and where each points. */
export function answerFingerprint(a: Answer): unknown {
  return { answer: a.answer, refused: a.refused, citations: a.citations };
}

export async function askAll(engine: Engine): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const q of QUESTIONS) out.push(answerFingerprint(await engine.ask(q)));
  return out;
}
