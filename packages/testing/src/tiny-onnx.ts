import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { onnx } from 'onnx-proto';
import onnxProto from 'onnx-proto';

/**
 * Builds tiny ONNX models and WordPiece tokenizers for tests: a token-embedding lookup (an
 * encoder's last_hidden_state) and a per-token-score cross-encoder. Nothing is downloaded.
 */
// onnx-proto is CommonJS: its default export is what Node's ESM loader (tsx) and Vitest both provide.
const { ModelProto, AttributeProto } = onnxProto.onnx;
const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'];
const FLOAT = 1;
const INT64 = 7;

function tokenizerJson(words: string[]): unknown {
  const vocab: Record<string, number> = {};
  let size = 0;
  for (const w of [...SPECIALS, ...words]) vocab[w] ??= size++;
  const special = (id: string, type_id = 0) => ({ SpecialToken: { id, type_id } });
  return {
    version: '1.0',
    truncation: null,
    added_tokens: SPECIALS.map((content, id) => ({ id, content, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
      pair: [
        special('[CLS]'),
        { Sequence: { id: 'A', type_id: 0 } },
        special('[SEP]'),
        { Sequence: { id: 'B', type_id: 1 } },
        special('[SEP]', 1),
      ],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [vocab[t]], tokens: [t] }])),
    },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}

function intInput(name: string): onnx.IValueInfoProto {
  return { name, type: { tensorType: { elemType: INT64, shape: { dim: [{ dimParam: 'batch' }, { dimParam: 'sequence' }] } } } };
}

function modelBytes(
  table: Float32Array,
  rows: number,
  cols: number,
  nodes: onnx.INodeProto[],
  output: onnx.IValueInfoProto,
): Uint8Array {
  const graph: onnx.IGraphProto = {
    name: 'tiny',
    node: nodes,
    initializer: [{ name: 'table', dims: [rows, cols], dataType: FLOAT, rawData: new Uint8Array(table.buffer) }],
    input: [intInput('input_ids'), intInput('attention_mask'), intInput('token_type_ids')],
    output: [output],
  };
  return ModelProto.encode({
    irVersion: 8,
    producerName: 'pinpoint-tests',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  }).finish();
}

/** Deterministic pseudo-random vector per token id. */
function tokenVector(id: number, dims: number): number[] {
  let s = (id + 1) * 2654435761;
  return Array.from({ length: dims }, () => {
    s = Math.imul(s ^ (s >>> 15), 2246822507) >>> 0;
    return (s / 2 ** 32) * 2 - 1;
  });
}

/** A folder with model.onnx (input_ids → last_hidden_state [B,S,dims]) and tokenizer.json. */
export async function writeTinyEncoder(dir: string, words: string[], dims: number): Promise<void> {
  const rows = SPECIALS.length + words.length;
  const table = new Float32Array(rows * dims);
  for (let id = 0; id < rows; id++)
    table.set(id < SPECIALS.length ? new Array<number>(dims).fill(0.01) : tokenVector(id, dims), id * dims);
  const nodes = [{ opType: 'Gather', name: 'lookup', input: ['table', 'input_ids'], output: ['last_hidden_state'] }];
  const output = {
    name: 'last_hidden_state',
    type: {
      tensorType: { elemType: FLOAT, shape: { dim: [{ dimParam: 'batch' }, { dimParam: 'sequence' }, { dimValue: dims }] } },
    },
  };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'model.onnx'), modelBytes(table, rows, dims, nodes, output));
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(words)));
}

/** A cross-encoder whose logit is the mean of per-token weights (unknown words weigh 0). */
export async function writeTinyCrossEncoder(dir: string, words: string[], weights: Record<string, number>): Promise<void> {
  const table = new Float32Array(SPECIALS.length + words.length);
  words.forEach((w, i) => {
    table[SPECIALS.length + i] = weights[w] ?? 0;
  });
  const nodes = [
    { opType: 'Gather', name: 'lookup', input: ['table', 'input_ids'], output: ['scores'] },
    {
      opType: 'ReduceMean',
      name: 'pool',
      input: ['scores'],
      output: ['logits'],
      attribute: [
        { name: 'axes', type: AttributeProto.AttributeType.INTS, ints: [1] },
        { name: 'keepdims', type: AttributeProto.AttributeType.INT, i: 0 },
      ],
    },
  ];
  const output = {
    name: 'logits',
    type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimParam: 'batch' }, { dimValue: 1 }] } } },
  };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'model.onnx'), modelBytes(table, table.length, 1, nodes, output));
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(words)));
}
