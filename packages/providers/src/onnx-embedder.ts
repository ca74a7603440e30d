import { createError, type Embedder } from '@pinpoint/core';
import { startThread } from '@pinpoint/threads';
import { embeddingPrefixes } from './ollama.js';
import type { OnnxEmbeddingHandlers, OnnxEmbeddingInit } from './onnx-embedding.js';

export interface OnnxEmbedderConfig {
  modelDir: string;
  /** Task prefixes; by default chosen from the folder name (e5 → "query: " / "passage: "). */
  prefixes?: { query: string; document: string };
  batchSize?: number;
}

const threadEntry = new URL('./onnx-embedder-thread.ts', import.meta.url);

/**
 * An ONNX encoder (e5 / sentence-transformers: mean pooling, unit length) run in a thread of its
 * own, so tokenising and pooling a document's chunks never hold up the caller's thread.
 */
export async function createOnnxEmbedder(cfg: OnnxEmbedderConfig): Promise<Embedder> {
  const init: OnnxEmbeddingInit = { modelDir: cfg.modelDir, batchSize: cfg.batchSize ?? 8 };
  const thread = startThread<OnnxEmbeddingHandlers>(threadEntry, init, 'onnx embedder');
  const { modelId, dimensions } = await thread.call('describe', undefined).catch(async (err: unknown) => {
    await thread.close();
    throw err;
  });
  if (!dimensions) throw createError('PP_CONFIG_INVALID', `The ONNX model in ${cfg.modelDir} produced no embedding`);
  const prefixes = cfg.prefixes ?? embeddingPrefixes(modelId.toLowerCase());
  const embed = async (texts: string[]): Promise<Float32Array[]> => {
    if (texts.length === 0) return [];
    const { vectors } = await thread.call('embed', texts);
    return Array.from({ length: texts.length }, (_, i) => vectors.subarray(i * dimensions, (i + 1) * dimensions));
  };
  return {
    id: `onnx:${modelId}@${dimensions}`,
    dimensions,
    embedDocuments: (texts) => embed(texts.map((t) => prefixes.document + t)),
    async embedQuery(text) {
      const [v] = await embed([prefixes.query + text]);
      return v as Float32Array;
    },
  };
}
