import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embedderConformance, rerankerConformance } from '@pinpoint/conformance';
import { writeTinyCrossEncoder, writeTinyEncoder } from '@pinpoint/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnnxEmbedder } from './onnx-embedder.js';
import { createOnnxReranker } from './onnx-reranker.js';
import { tokenizerFromJson } from './tokenizer.js';

const WORDS =
  'the refund policy allows thirty days parking permits are issued monthly within query passage : apple banana ##s'.split(' ');
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'pp-onnx-'));
  await writeTinyEncoder(join(root, 'tiny-e5'), WORDS, 64);
  await writeTinyCrossEncoder(join(root, 'tiny-ce'), WORDS, { apple: 4, banana: 1 });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('ONNX embedder on a generated tiny model', () => {
  embedderConformance(() => createOnnxEmbedder({ modelDir: join(root, 'tiny-e5') }));

  it('uses the e5 prefixes, mean pooling with the mask, and a content-derived id', async () => {
    const e = await createOnnxEmbedder({ modelDir: join(root, 'tiny-e5') });
    expect(e.dimensions).toBe(64);
    expect(e.id).toMatch(/^onnx:tiny-e5#[0-9a-f]{12}@64$/);
    // Padding must not change a text's vector: alone vs. batched with a longer text.
    const [alone] = await e.embedDocuments(['refund']);
    const [padded] = await e.embedDocuments(['refund', 'the refund policy allows thirty days parking permits']);
    expect(Array.from(padded ?? [])).toEqual(Array.from(alone ?? []).map((x) => expect.closeTo(x, 5)));
    // "query: x" and "passage: x" differ because of the prefixes.
    const q = await e.embedQuery('refund');
    expect(Array.from(q)).not.toEqual(Array.from(alone ?? []));
  });

  it('explains a folder without a model', async () => {
    await expect(createOnnxEmbedder({ modelDir: join(root, 'missing') })).rejects.toMatchObject({ code: 'PP_CONFIG_INVALID' });
  });

  it('changes its id when the model changes', async () => {
    const dir = join(root, 'other');
    await writeTinyEncoder(dir, [...WORDS, 'extra'], 64);
    const a = await createOnnxEmbedder({ modelDir: join(root, 'tiny-e5') });
    const b = await createOnnxEmbedder({ modelDir: dir });
    expect(a.id).not.toBe(b.id);
  });
});

describe('ONNX cross-encoder reranker on a generated tiny model', () => {
  rerankerConformance(() => createOnnxReranker({ modelDir: join(root, 'tiny-ce') }), 'fruit', 'apple banana', 'parking permits');

  it('scores (query, passage) pairs and sorts by score', async () => {
    const r = await createOnnxReranker({ modelDir: join(root, 'tiny-ce') });
    const out = await r.rerank('fruit', [
      { chunk_id: 'a', text: 'parking permits' },
      { chunk_id: 'b', text: 'apple apple' },
      { chunk_id: 'c', text: 'banana' },
    ]);
    expect(out.map((x) => x.chunk_id)).toEqual(['b', 'c', 'a']);
  });
});

describe('tokenizer.json reader', () => {
  it('segments WordPiece with ## continuations and pair type ids', async () => {
    const dir = join(root, 'tiny-e5');
    const { loadTokenizer } = await import('./tokenizer.js');
    const t = await loadTokenizer(dir);
    const enc = t.encode('Apples', 'banana');
    // [CLS] apple ##s [SEP] banana [SEP]
    expect(enc.ids).toEqual([2, 19, 21, 3, 20, 3]);
    expect(enc.typeIds).toEqual([0, 0, 0, 0, 1, 1]);
  });

  it('segments Unigram (SentencePiece) text by Viterbi with Metaspace', () => {
    const t = tokenizerFromJson({
      normalizer: null,
      pre_tokenizer: { type: 'Metaspace', replacement: '▁' },
      post_processor: { type: 'RobertaProcessing', cls: ['<s>', 0], sep: ['</s>', 2] },
      model: {
        type: 'Unigram',
        unk_id: 1,
        vocab: [
          ['<s>', 0],
          ['<unk>', 0],
          ['</s>', 0],
          ['▁', -2],
          ['▁query', -3],
          ['▁q', -4],
          ['uery', -4],
          [':', -2],
          ['▁東京', -3],
          ['東', -5],
          ['京', -5],
        ],
      },
    });
    expect(t.encode('query 東京').ids).toEqual([0, 4, 8, 2]);
    expect(t.encode('query:').ids).toEqual([0, 4, 7, 2]);
    expect(t.encode('x').ids).toEqual([0, 3, 1, 2]);
  });
});

describe('tokenizer.json reader at real vocabulary sizes', () => {
  it('loads a 250,000-piece Unigram vocabulary (XLM-R size) without blowing the stack', () => {
    const vocab: [string, number][] = [
      ['<s>', 0],
      ['<pad>', 0],
      ['</s>', 0],
      ['<unk>', 0],
    ];
    for (let i = 0; i < 250_000; i++) vocab.push([`▁w${i}`, -10 - (i % 7)]);
    const t = tokenizerFromJson({
      normalizer: { type: 'Precompiled' },
      pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'WhitespaceSplit' }, { type: 'Metaspace', replacement: '▁' }] },
      post_processor: {
        type: 'TemplateProcessing',
        single: [
          { SpecialToken: { id: '<s>', type_id: 0 } },
          { Sequence: { id: 'A', type_id: 0 } },
          { SpecialToken: { id: '</s>', type_id: 0 } },
        ],
        pair: [],
        special_tokens: { '<s>': { ids: [0] }, '</s>': { ids: [2] } },
      },
      model: { type: 'Unigram', unk_id: 3, vocab },
    });
    expect(t.encode('w12 w249999').ids).toEqual([0, 16, 250003, 2]);
  });
});
