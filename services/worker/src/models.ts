import { analyze } from '@pinpoint/analysis';
import type { Embedder, VectorStore } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type { EmbedderConfig } from '@pinpoint/providers';
import { createEmbedder } from '@pinpoint/providers';
import { collectionNameFor, QdrantVectorStore } from '@pinpoint/vectors';

/** What ingestion needs of the models: the embedder (the same one the API queries with) and Qdrant for its vectors. */
export interface WorkerModels {
  embedder: EmbedderConfig;
  qdrant: { url: string; apiKey?: string; collection: string };
}

export interface ModelsEnv {
  PINPOINT_EMBEDDER: 'none' | 'gemini' | 'ollama' | 'onnx';
  PINPOINT_EMBEDDER_MODEL?: string | undefined;
  PINPOINT_EMBEDDER_DIMENSIONS?: number | undefined;
  PINPOINT_GEMINI_API_KEY?: string | undefined;
  PINPOINT_GEMINI_BASE_URL?: string | undefined;
  PINPOINT_OLLAMA_URL: string;
  PINPOINT_ONNX_MODEL_DIR?: string | undefined;
  PINPOINT_VECTORS: 'embedded' | 'qdrant';
  PINPOINT_QDRANT_URL: string;
  PINPOINT_QDRANT_API_KEY?: string | undefined;
  PINPOINT_QDRANT_COLLECTION: string;
}

function need<T>(value: T | undefined, name: string, why: string): T {
  if (value === undefined) throw createError('PP_CONFIG_INVALID', `Set ${name}: ${why}.`);
  return value;
}

function embedderConfig(e: ModelsEnv): EmbedderConfig {
  const model = e.PINPOINT_EMBEDDER_MODEL;
  const dimensions = e.PINPOINT_EMBEDDER_DIMENSIONS;
  switch (e.PINPOINT_EMBEDDER) {
    case 'none':
      return { kind: 'none' };
    case 'gemini':
      return {
        kind: 'gemini',
        apiKey: need(e.PINPOINT_GEMINI_API_KEY, 'PINPOINT_GEMINI_API_KEY', 'the Gemini embedder needs a key'),
        ...(e.PINPOINT_GEMINI_BASE_URL ? { baseUrl: e.PINPOINT_GEMINI_BASE_URL } : {}),
        ...(model ? { model } : {}),
        ...(dimensions ? { dimensions } : {}),
      };
    case 'ollama':
      return {
        kind: 'ollama',
        url: e.PINPOINT_OLLAMA_URL,
        model: need(model, 'PINPOINT_EMBEDDER_MODEL', 'the Ollama embedder needs a model (e.g. bge-m3)'),
        dimensions: need(dimensions, 'PINPOINT_EMBEDDER_DIMENSIONS', 'the Ollama embedder needs its vector size'),
      };
    case 'onnx':
      return {
        kind: 'onnx',
        modelDir: need(e.PINPOINT_ONNX_MODEL_DIR, 'PINPOINT_ONNX_MODEL_DIR', 'the ONNX embedder needs a model folder'),
      };
  }
}

/** The same PINPOINT_* model variables as the API; vectors must be in Qdrant, where the API reads them. */
export function workerModelsFrom(e: ModelsEnv): WorkerModels {
  const embedder = embedderConfig(e);
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
