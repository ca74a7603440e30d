import type { embedderEnvShape, vectorsEnvShape } from '@pinpoint/compose';
import { createModelPorts, embedderFromEnv } from '@pinpoint/compose';
import type { Embedder, VectorStore } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type { EmbedderConfig } from '@pinpoint/providers';
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

/**
 * The embedder and its Qdrant store (named per embedder, as the API names it), or nothing when no
 * embedder is configured (lexical-only ingestion). Ingestion needs no generator or reranker.
 */
export async function openModelPorts(models: WorkerModels): Promise<{ embedder?: Embedder; vectors?: VectorStore }> {
  const none = { kind: 'none' } as const;
  const { embedder, vectors } = await createModelPorts(
    { embedder: models.embedder, generator: none, reranker: none, vectors: { kind: 'qdrant', ...models.qdrant } },
    // only an embedded vector store would live in a data folder; workers write to Qdrant
    '',
  );
  return { ...(embedder ? { embedder } : {}), ...(vectors ? { vectors } : {}) };
}
