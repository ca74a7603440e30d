import { analyze } from '@pinpoint/analysis';
import type { Embedder, VectorStore } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type { embedderEnvShape, vectorsEnvShape } from '@pinpoint/engine';
import { embedderFromEnv } from '@pinpoint/engine';
import type { EmbedderConfig } from '@pinpoint/providers';
import { createEmbedder } from '@pinpoint/providers';
import { collectionNameFor, QdrantVectorStore } from '@pinpoint/vectors';
import type { z } from 'zod';

/** What ingestion needs of the models: the embedder (the same one the API queries with) and Qdrant for its vectors. */
export interface WorkerModels {
  embedder: EmbedderConfig;
  qdrant: { url: string; apiKey?: string; collection: string };
}

type ModelsEnv = z.infer<z.ZodObject<typeof embedderEnvShape & typeof vectorsEnvShape>>;

/** The same PINPOINT_* model variables as the API; vectors must be in Qdrant, where the API reads them. */
export function workerModelsFrom(e: ModelsEnv): WorkerModels {
  const embedder = embedderFromEnv(e);
  if (embedder.kind !== 'none' && e.PINPOINT_VECTORS !== 'qdrant') {
    throw createError(
      'PP_CONFIG_INVALID',
      'Set PINPOINT_VECTORS=qdrant: distributed workers write vectors where every API process reads them.',
    );
  }
  return {
    embedder,
    qdrant: {
      url: e.PINPOINT_QDRANT_URL,
      collection: e.PINPOINT_QDRANT_COLLECTION,
      ...(e.PINPOINT_QDRANT_API_KEY ? { apiKey: e.PINPOINT_QDRANT_API_KEY } : {}),
    },
  };
}

/** The embedder and its Qdrant store, or nothing when no embedder is configured (lexical-only ingestion). */
export async function openModelPorts(models: WorkerModels): Promise<{ embedder?: Embedder; vectors?: VectorStore }> {
  const embedder = await createEmbedder(models.embedder);
  if (!embedder) return {};
  // One collection per embedder (as the API names it): a model change gets fresh vectors, never mixed spaces.
  const collection = collectionNameFor(models.qdrant.collection, embedder.id);
  const vectors = await QdrantVectorStore.open({ ...models.qdrant, collection, dimensions: embedder.dimensions, analyze });
  return { embedder, vectors };
}
