import { createError, type Embedder } from '@pinpoint/core';
import { embeddingPrefixes } from './ollama.js';
import { loadOnnxModel } from './onnx-model.js';
import type { Encoding } from './tokenizer.js';
import { chunked, l2Normalize } from './vector-math.js';

export interface OnnxEmbedderConfig {
  modelDir: string;
  /** Task prefixes; by default chosen from the folder name (e5 → "query: " / "passage: "). */
  prefixes?: { query: string; document: string };
  batchSize?: number;
}

/** Mean of the token vectors where the attention mask is 1, then L2-normalised (e5 / sentence-transformers). */
function meanPool(data: Float32Array, dims: readonly number[], batch: Encoding[]): Float32Array[] {
  const [b = 0, s = 0, d = 0] = dims;
  if (dims.length === 2) return Array.from({ length: b }, (_, i) => l2Normalize(data.slice(i * s, (i + 1) * s)));
  return Array.from({ length: b }, (_, i) => {
    const v = new Float32Array(d);
    const n = batch[i]?.ids.length ?? 0;
    for (let t = 0; t < n; t++) for (let k = 0; k < d; k++) v[k] = (v[k] ?? 0) + (data[(i * s + t) * d + k] ?? 0);
    for (let k = 0; k < d; k++) v[k] = (v[k] ?? 0) / Math.max(1, n);
    return l2Normalize(v);
  });
}

export async function createOnnxEmbedder(cfg: OnnxEmbedderConfig): Promise<Embedder> {
  const model = await loadOnnxModel(cfg.modelDir);
  const prefixes = cfg.prefixes ?? embeddingPrefixes(model.id.toLowerCase());
  const embed = async (texts: string[]) => {
    const out: Float32Array[] = [];
    for (const batch of chunked(texts, cfg.batchSize ?? 16)) {
      const encodings = batch.map((t) => model.tokenizer.encode(t));
      const { data, dims } = await model.run(encodings, 'last_hidden_state');
      out.push(...meanPool(data, dims, encodings));
    }
    return out;
  };
  const [probe] = await embed(['probe']);
  if (!probe) throw createError('PP_CONFIG_INVALID', `The ONNX model in ${cfg.modelDir} produced no embedding`);
  return {
    id: `onnx:${model.id}@${probe.length}`,
    dimensions: probe.length,
    embedDocuments: (texts) => embed(texts.map((t) => prefixes.document + t)),
    async embedQuery(text) {
      const [v] = await embed([prefixes.query + text]);
      return v as Float32Array;
    },
  };
}
