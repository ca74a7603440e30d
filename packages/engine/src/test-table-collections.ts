import { expect } from 'vitest';
import type { Engine } from './engine.js';
import { openTestEngine, textFiles, uploadSettled } from './test-engine.js';

/** An engine with one collection per language, each holding that language's small tables (file name → text). */
export interface TableCollections {
  engine: Engine;
  /** The collection of each language. */
  collections: Map<string, string>;
  close(): Promise<void>;
}

/** Uploads each language's files into a collection of its own and waits until every one is ready. */
export async function openTableCollections(
  prefix: string,
  tables: Record<string, Record<string, string>>,
): Promise<TableCollections> {
  const { engine, close } = openTestEngine(prefix, { isolate: false });
  const collections = new Map<string, string>();
  for (const [lang, files] of Object.entries(tables)) {
    const { collection_id } = await engine.ensureCollection(`${prefix}${lang.toLowerCase()}`);
    collections.set(lang, collection_id);
    await uploadSettled(engine, collection_id, textFiles(files), 60_000);
  }
  return { engine, collections, close };
}

/** Asks `question` of the language's collection and expects the refusal in that language. */
export async function expectRefusal(t: TableCollections, lang: string, [question, refusal]: [string, string]): Promise<void> {
  const res = await t.engine.ask(question, { collectionId: t.collections.get(lang) as string });
  expect(res.refused, res.answer).toBe(true);
  expect(res.answer).toBe(refusal);
}
