import { readFileSync } from 'node:fs';
import type { Element, Recipe } from '@pinpoint/core';
import { elementSchema } from '@pinpoint/core';
import { detectFormat, parseDocument } from '@pinpoint/parsers';
import type { SqliteMetadataStore } from '../src/metadata-store.js';

const formats = new URL('../../../../shared/corpus/formats/', import.meta.url);

/** A corpus file's elements as ingestion stores them (parsed, then validated by the store), and its name. */
export async function corpusElements(file: string): Promise<{ fileName: string; elements: Element[] }> {
  const bytes = new Uint8Array(readFileSync(new URL(file, formats)));
  const fileName = file.split('/').at(-1) as string;
  const out = await parseDocument(bytes, { fileName, format: detectFormat(fileName, bytes) });
  return { fileName, elements: out.elements.map((e) => elementSchema.parse(e)) };
}

const recipe: Recipe = { parser: 'p@1', chunker: 'c@1', analyzer: 'a@1', options: {} };

/** One version per name, each of its own document, in a new collection: their ids. */
export async function createVersions(
  store: SqliteMetadataStore,
  names: string[],
): Promise<{ version: string; document: string; collection: string }[]> {
  const col = await store.createCollection('c');
  const out: { version: string; document: string; collection: string }[] = [];
  for (const name of names) {
    const doc = await store.findOrCreateDocument(col.collection_id, name);
    const { version } = await store.createVersion({
      document_id: doc.document_id,
      collection_id: col.collection_id,
      source_sha256: 'a'.repeat(64),
      original_name: name,
      declared_mime: null,
      size: 1,
      recipe,
    });
    out.push({ version: version.version_id, document: doc.document_id, collection: col.collection_id });
  }
  return out;
}
