import type { Chunk, Element, NewVersion, Recipe } from '@pinpoint/core';
import { chunkId, elementId, sha256Hex } from '@pinpoint/core';

/** A port under test plus how to throw it away (close it, drop its schema, delete its folder…). */
export interface PortFixture<T> {
  port: T;
  dispose(): Promise<void>;
}

export type PortFactory<T> = () => Promise<PortFixture<T>>;

/** A test body run on a fresh port. */
export type PortTest<T> = (fn: (port: T) => Promise<void>) => () => Promise<void>;

/** Runs each test body on a fresh port from the factory and disposes of it afterwards, pass or fail. */
export function withFreshPort<T>(factory: PortFactory<T>): PortTest<T> {
  return (fn) => async () => {
    const fixture = await factory();
    try {
      await fn(fixture.port);
    } finally {
      await fixture.dispose();
    }
  };
}

const sampleRecipe: Recipe = { parser: 'txt@1', chunker: 'c1:500/50', analyzer: 'std@1', options: { ocr: false } };

export function newVersionInput(documentId: string, collectionId: string, content: string): NewVersion {
  return {
    document_id: documentId,
    collection_id: collectionId,
    source_sha256: sha256Hex(content),
    original_name: 'notes.txt',
    declared_mime: 'text/plain',
    size: content.length,
    recipe: sampleRecipe,
  };
}

export function sampleElements(count: number, textSha = sha256Hex('doc')): Element[] {
  return Array.from({ length: count }, (_, i) => ({
    element_id: elementId(i),
    type: i === 0 ? 'heading' : 'paragraph',
    ...(i === 0 ? { level: 1 } : {}),
    section_path: i === 0 ? [] : ['Intro'],
    text: `Element ${i} — 日本語 𠮷`,
    anchor: { kind: 'text', artifact: 'original', unit: 'codepoint', start: i * 10, end: i * 10 + 9, text_sha256: textSha },
  }));
}

export function sampleChunks(versionId: string, documentId: string, collectionId: string, count: number): Chunk[] {
  return Array.from({ length: count }, (_, i) => ({
    chunk_id: chunkId(versionId, i),
    chunk_set_id: 'c1:500/50',
    version_id: versionId,
    document_id: documentId,
    collection_id: collectionId,
    ordinal: i,
    elements: [{ element_id: elementId(i), start: 0, end: 9 }],
    text: `chunk ${i}`,
    retrieval_text: `notes.txt › Intro › chunk ${i}`,
    ...(i % 2 === 0 ? { page_index: i } : {}),
    section_path: ['Intro'],
  }));
}
