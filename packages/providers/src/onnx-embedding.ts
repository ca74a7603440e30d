import { transferring } from '@pinpoint/threads';
import { loadOnnxModel } from './onnx-model.js';
import type { Encoding } from './tokenizer.js';
import { chunked } from './vector-math.js';

/**
 * What the ONNX embedder's thread does: tokenise, run the model, pool. The caller's thread only
 * posts texts and receives vectors.
 */
export interface OnnxEmbeddingInit {
  modelDir: string;
  batchSize: number;
}

/**
 * Mean of the token vectors where the attention mask is 1, then L2-normalised (e5 /
 * sentence-transformers), written into `out` at `at` (a model with pooled [B, D] output is only
 * normalised).
 */
function meanPool(data: Float32Array, dims: readonly number[], batch: Encoding[], out: Float32Array, at: number): void {
  const [b = 0, s = 0, d = 0] = dims;
  const width = dims.length === 2 ? s : d;
  for (let i = 0; i < b; i++) {
    const v = out.subarray((at + i) * width, (at + i + 1) * width);
    if (dims.length === 2) v.set(data.subarray(i * s, (i + 1) * s));
    else {
      const n = batch[i]?.ids.length ?? 0;
      for (let t = 0; t < n; t++) {
        const row = (i * s + t) * d;
        for (let k = 0; k < d; k++) v[k] = (v[k] as number) + (data[row + k] as number);
      }
      const scale = 1 / Math.max(1, n);
      for (let k = 0; k < d; k++) v[k] = (v[k] as number) * scale;
    }
    let sum = 0;
    for (let k = 0; k < width; k++) sum += (v[k] as number) ** 2;
    const norm = Math.sqrt(sum);
    if (norm > 0) for (let k = 0; k < width; k++) v[k] = (v[k] as number) / norm;
  }
}

export async function onnxEmbeddingHandlers(init: OnnxEmbeddingInit) {
  const model = await loadOnnxModel(init.modelDir);
  /** Every text's vector, one after the other in one array. */
  const embed = async (texts: string[]): Promise<{ vectors: Float32Array; dimensions: number }> => {
    let out = new Float32Array(0);
    let width = 0;
    let at = 0;
    for (const batch of chunked(texts, init.batchSize)) {
      const encodings = batch.map((t) => model.tokenizer.encode(t));
      const { data, dims } = await model.run(encodings, 'last_hidden_state');
      width = (dims.length === 2 ? dims[1] : dims[2]) ?? 0;
      if (out.length === 0) out = new Float32Array(texts.length * width);
      meanPool(data, dims, encodings, out, at);
      at += batch.length;
    }
    return { vectors: out, dimensions: width };
  };
  const probe = await embed(['probe']);
  return {
    describe: () => ({ modelId: model.id, dimensions: probe.dimensions }),
    embed: async (texts: string[]) => {
      const r = await embed(texts);
      return transferring(r, [r.vectors.buffer as ArrayBuffer]);
    },
  };
}

export type OnnxEmbeddingHandlers = Awaited<ReturnType<typeof onnxEmbeddingHandlers>>;
