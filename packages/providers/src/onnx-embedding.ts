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
 * pooled [B, D] output is only normalised). The mean's 1/n cancels in the normalisation, so the sum is
 * normalised; it is kept in doubles, four token rows per pass (the pooling reads every token's
 * vector: with a small model it is most of the thread's work).
 */
function meanPool(data: Float32Array, dims: readonly number[], batch: Encoding[], out: Float32Array, positions: number[]): void {
  const [b = 0, s = 0, d = 0] = dims;
  const pooled = dims.length === 2;
  const width = pooled ? s : d;
  const acc = new Float64Array(width);
  for (let i = 0; i < b; i++) {
    if (pooled) for (let k = 0; k < width; k++) acc[k] = data[i * s + k] as number;
    else {
      acc.fill(0);
      const n = batch[i]?.ids.length ?? 0;
      let row = i * s * d;
      let t = 0;
      for (; t + 3 < n; t += 4, row += 4 * d) {
        const r1 = row + d;
        const r2 = r1 + d;
        const r3 = r2 + d;
        for (let k = 0; k < d; k++)
          acc[k] =
            (acc[k] as number) +
            (data[row + k] as number) +
            (data[r1 + k] as number) +
            (data[r2 + k] as number) +
            (data[r3 + k] as number);
      }
      for (; t < n; t++, row += d) for (let k = 0; k < d; k++) acc[k] = (acc[k] as number) + (data[row + k] as number);
    }
    let sum = 0;
    for (let k = 0; k < width; k++) sum += (acc[k] as number) * (acc[k] as number);
    const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    const at = (positions[i] as number) * width;
    for (let k = 0; k < width; k++) out[at + k] = (acc[k] as number) * scale;
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
