import type { Reranker } from '@pinpoint/core';
import { loadOnnxModel } from './onnx-model.js';
import { chunked } from './vector-math.js';

export interface OnnxRerankerConfig {
  modelDir: string;
  batchSize?: number;
}

/** A cross-encoder (query, passage) → one relevance logit per pair, higher is better. */
export async function createOnnxReranker(cfg: OnnxRerankerConfig): Promise<Reranker> {
  const model = await loadOnnxModel(cfg.modelDir);
  return {
    id: `onnx-cross-encoder:${model.id}`,
    async rerank(query, candidates) {
      const scores: { chunk_id: string; score: number }[] = [];
      for (const batch of chunked(candidates, cfg.batchSize ?? 16)) {
        const encodings = batch.map((c) => model.tokenizer.encode(query, c.text));
        const { data, dims } = await model.run(encodings, 'logits');
        const width = dims.length > 1 ? (dims[1] ?? 1) : 1;
        // Single-logit models score directly; two-class models score the "relevant" logit.
        for (const [i, c] of batch.entries()) scores.push({ chunk_id: c.chunk_id, score: data[i * width + (width - 1)] ?? 0 });
      }
      return scores.sort((a, b) => b.score - a.score);
    },
  };
}
