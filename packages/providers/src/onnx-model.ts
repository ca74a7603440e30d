import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createError } from '@pinpoint/core/errors';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { type Encoding, loadTokenizer, type Tokenizer } from './tokenizer.js';

/** An ONNX transformer loaded from a local folder (model.onnx or onnx/model.onnx + tokenizer.json). */
export interface OnnxModel {
  /** Folder name + the first 12 hex digits of the model file's sha256: a changed model changes the id. */
  id: string;
  tokenizer: Tokenizer;
  /** Runs one padded batch; returns the first output (or the named one) with its dims. */
  run(batch: Encoding[], outputName?: string): Promise<{ data: Float32Array; dims: readonly number[] }>;
}

async function findModelFile(dir: string): Promise<string> {
  for (const candidate of ['model.onnx', join('onnx', 'model.onnx')]) {
    const path = join(dir, candidate);
    try {
      await access(path);
      return path;
    } catch {}
  }
  throw createError(
    'PP_CONFIG_INVALID',
    `No model.onnx (or onnx/model.onnx) in ${dir}; export the model to ONNX into that folder`,
  );
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * One int64 input of a padded batch, `value(encoding, position)` per real token and 0 in the padding.
 * Token ids, masks and type ids are small non-negative integers: each is written as the low 32-bit
 * word of its int64 (no BigInt per token).
 */
function int64Tensor(
  ort: typeof import('onnxruntime-node'),
  batch: Encoding[],
  width: number,
  value: (e: Encoding, t: number) => number,
): Tensor {
  const data = new BigInt64Array(batch.length * width);
  const words = new Int32Array(data.buffer);
  for (const [r, e] of batch.entries())
    for (let t = 0; t < e.ids.length; t++) words[2 * (r * width + t) + LOW_WORD] = value(e, t);
  return new ort.Tensor('int64', data, [batch.length, width]);
}

/** Where an int64's low word sits in its two 32-bit words: first on little-endian machines. */
const LOW_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;

const INPUTS: Record<string, (e: Encoding, t: number) => number> = {
  input_ids: (e, t) => e.ids[t] as number,
  attention_mask: () => 1,
  token_type_ids: (e, t) => e.typeIds[t] as number,
};

export async function loadOnnxModel(modelDir: string): Promise<OnnxModel> {
  const [file, tokenizer, ort] = await Promise.all([
    findModelFile(modelDir),
    loadTokenizer(modelDir),
    import('onnxruntime-node'),
  ]);
  let session: InferenceSession;
  try {
    session = await ort.InferenceSession.create(file, { intraOpNumThreads: 1, graphOptimizationLevel: 'all' });
  } catch (err) {
    throw createError('PP_CONFIG_INVALID', `Cannot load the ONNX model ${file}: ${(err as Error).message}`, err);
  }
  const id = `${basename(modelDir)}#${(await sha256File(file)).slice(0, 12)}`;
  return {
    id,
    tokenizer,
    async run(batch, outputName) {
      const width = Math.max(1, ...batch.map((e) => e.ids.length));
      const feeds: Record<string, Tensor> = {};
      for (const name of session.inputNames) {
        const value = INPUTS[name];
        if (!value) throw createError('PP_CONFIG_INVALID', `The ONNX model wants an input "${name}" we do not know how to feed`);
        feeds[name] = int64Tensor(ort, batch, width, value);
      }
      const outputs = await session.run(feeds);
      const out = outputs[outputName && outputName in outputs ? outputName : (session.outputNames[0] ?? '')];
      if (out?.type !== 'float32') throw createError('PP_PROVIDER_BAD_RESPONSE', 'The ONNX model produced no float32 output');
      return { data: out.data as Float32Array, dims: out.dims };
    },
  };
}
