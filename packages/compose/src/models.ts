import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '@pinpoint/analysis';
import type { Embedder, Generator, Reranker, VectorStore } from '@pinpoint/core';
import { createEmbedder, createGenerator, createReranker } from '@pinpoint/providers';
import { collectionNameFor, openEmbeddedVectorStore, QdrantVectorStore } from '@pinpoint/vectors';
import type { ModelsConfig } from './models-config.js';

export interface ModelPorts {
  embedder?: Embedder;
  vectors?: VectorStore;
  generator?: Generator;
  reranker?: Reranker;
}

/**
 * The optional model ports from the configuration (the server's and the CLI's, from the same PINPOINT_*
 * variables); with none configured this is `{}` (the zero-key default).
 */
export async function createModelPorts(m: ModelsConfig, dataDir: string): Promise<ModelPorts> {
  const embedder = await createEmbedder(m.embedder);
  const generator = createGenerator(m.generator);
  const reranker = await createReranker(m.reranker, { generator });
  let vectors: VectorStore | undefined;
  if (embedder) {
    vectors =
      m.vectors.kind === 'qdrant'
        ? await QdrantVectorStore.open({
            url: m.vectors.url,
            // One collection per embedder, named as the worker names it: a model change gets fresh vectors.
            collection: collectionNameFor(m.vectors.collection, embedder.id),
            dimensions: embedder.dimensions,
            analyze,
            ...(m.vectors.apiKey ? { apiKey: m.vectors.apiKey } : {}),
          })
        : openEmbeddedVectorStore({ path: join(mkdirp(dataDir), 'vectors.db'), dimensions: embedder.dimensions });
  }
  return {
    ...(embedder ? { embedder } : {}),
    ...(vectors ? { vectors } : {}),
    ...(generator ? { generator } : {}),
    ...(reranker ? { reranker } : {}),
  };
}

const mkdirp = (dir: string): string => {
  mkdirSync(dir, { recursive: true });
  return dir;
};
