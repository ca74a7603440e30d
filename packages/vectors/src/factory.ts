import type { VectorStore } from '@pinpoint/core';
import { openEmbeddedVectorStore } from './embedded-store.js';
import { QdrantVectorStore } from './qdrant-store.js';
import type { Bm25Params } from './sparse.js';

/** Plain, validated settings from the composition root. */
export type VectorStoreConfig =
  | { kind: 'embedded'; path: string; dimensions: number; annThreshold?: number; space?: string }
  | {
      kind: 'qdrant';
      url: string;
      apiKey?: string;
      collection: string;
      dimensions: number;
      analyze?: (text: string) => string[];
      bm25?: Bm25Params;
    };

/** A collection name for an embedder id: one collection per model, since dimensions and spaces differ. */
export function collectionNameFor(prefix: string, embedderId: string): string {
  return `${prefix}_${embedderId.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`.replace(/_+$/, '');
}

export async function createVectorStore(cfg: VectorStoreConfig): Promise<VectorStore> {
  if (cfg.kind === 'embedded') return openEmbeddedVectorStore(cfg);
  const { kind: _, ...options } = cfg;
  return QdrantVectorStore.open(options);
}
