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
 * sentence-transformers); batch row i is written into `out` at text `positions[i]` (a model with
 * pooled [B, D] output is only normalised).
 */
function meanPool(data: Float32Array, dims: readonly number[], batch: Encoding[], out: Float32Array, positions: number[]): void {
  const [b = 0, s = 0, d = 0] = dims;
  const width = dims.length === 2 ? s : d;
  const acc = new Float32Array(width);
  for (let i = 0; i < b; i++) {
    if (dims.length === 2) acc.set(data.subarray(i * s, (i + 1) * s));
    else {
      acc.fill(0);
      const n = batch[i]?.ids.length ?? 0;
      for (let t = 0, row = i * s * d; t < n; t++, row += d)
        for (let k = 0; k < d; k++) acc[k] = (acc[k] as number) + (data[row + k] as number);
      const scale = 1 / Math.max(1, n);
      for (let k = 0; k < d; k++) acc[k] = (acc[k] as number) * scale;
    }
    let sum = 0;
    for (let k = 0; k < width; k++) sum += (acc[k] as number) ** 2;
    const norm = Math.sqrt(sum);
    if (norm > 0) for (let k = 0; k < width; k++) acc[k] = (acc[k] as number) / norm;
    out.set(acc, (positions[i] as number) * width);
  }
}

export async function onnxEmbeddingHandlers(init: OnnxEmbeddingInit) {
  const model = await loadOnnxModel(init.modelDir);
  /**
   * Every text's vector, one after the other in one array. Batches are cut from the texts in order of
   * their token counts, so a batch is padded to a length its texts nearly share (half the model's
   * work on reports that mix short Latin and long CJK chunks).
   */
  const embed = async (texts: string[]): Promise<{ vectors: Float32Array; dimensions: number }> => {
    const encodings = texts.map((t) => model.tokenizer.encode(t));
    const order = encodings.map((_, i) => i).sort((a, b) => (encodings[a]?.ids.length ?? 0) - (encodings[b]?.ids.length ?? 0));
    let out = new Float32Array(0);
    let width = 0;
    for (const positions of chunked(order, init.batchSize)) {
      const batch = positions.map((i) => encodings[i] as Encoding);
      const { data, dims } = await model.run(batch, 'last_hidden_state');
      width = (dims.length === 2 ? dims[1] : dims[2]) ?? 0;
      if (out.length === 0) out = new Float32Array(texts.length * width);
      meanPool(data, dims, batch, out, positions);
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
