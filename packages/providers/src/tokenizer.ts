import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createError } from '@pinpoint/core/errors';

/**
 * A reader of Hugging Face tokenizer.json files for the two model families we load locally:
 * WordPiece (BERT, MiniLM cross-encoders) and Unigram (XLM-R, multilingual-e5). Precompiled
 * SentencePiece charmaps are approximated by NFKC.
 */
export interface Encoding {
  ids: number[];
  typeIds: number[];
}

export interface Tokenizer {
  encode(text: string, pair?: string): Encoding;
}

interface TokenizerJson {
  normalizer?: { type: string; lowercase?: boolean; normalizers?: TokenizerJson['normalizer'][] } | null;
  pre_tokenizer?: { type: string; replacement?: string; pretokenizers?: TokenizerJson['pre_tokenizer'][] } | null;
  post_processor?: PostProcessor | null;
  truncation?: { max_length?: number } | null;
  added_tokens?: { id: number; content: string }[];
  model: {
    type: string;
    vocab: Record<string, number> | [string, number][];
    unk_token?: string;
    unk_id?: number;
    continuing_subword_prefix?: string;
  };
}

type TemplatePiece = { SpecialToken: { id: string; type_id: number } } | { Sequence: { id: 'A' | 'B'; type_id: number } };
interface PostProcessor {
  type: string;
  single?: TemplatePiece[];
  pair?: TemplatePiece[];
  special_tokens?: Record<string, { ids: number[] }>;
  cls?: [string, number];
  sep?: [string, number];
}

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2fa1f}]/gu;

function normalize(text: string, n: TokenizerJson['normalizer']): string {
  if (!n) return text;
  if (n.type === 'Sequence') return (n.normalizers ?? []).reduce((t, x) => normalize(t, x), text);
  if (n.type === 'Lowercase') return text.toLowerCase();
  if (n.type === 'BertNormalizer') {
    const spaced = text.replace(CJK, ' $& ');
    return n.lowercase === false
      ? spaced
      : spaced
          .toLowerCase()
          .normalize('NFD')
          .replace(/\p{Mn}/gu, '');
  }
  return text.normalize('NFKC');
}

function preTokenize(text: string, p: TokenizerJson['pre_tokenizer']): string[] {
  if (p?.type === 'Sequence')
    return (p.pretokenizers ?? []).reduce<string[]>((words, x) => words.flatMap((w) => preTokenize(w, x)), [text]);
  if (p?.type === 'Metaspace') {
    const r = p.replacement ?? '▁';
    return text
      .split(/\s+/u)
      .filter(Boolean)
      .map((w) => r + w);
  }
  if (p?.type === 'BertPreTokenizer') return text.match(/[\p{L}\p{N}\p{M}]+|[^\s\p{L}\p{N}\p{M}]/gu) ?? [];
  return text.split(/\s+/u).filter(Boolean);
}

function wordPiece(model: TokenizerJson['model']): (word: string) => number[] {
  const vocab = new Map(Object.entries(model.vocab as Record<string, number>));
  const unk = vocab.get(model.unk_token ?? '[UNK]') ?? 0;
  const prefix = model.continuing_subword_prefix ?? '##';
  return (word) => {
    const chars = [...word];
    const ids: number[] = [];
    for (let start = 0; start < chars.length; ) {
      let end = chars.length;
      let id: number | undefined;
      for (; end > start; end--) {
        id = vocab.get((start > 0 ? prefix : '') + chars.slice(start, end).join(''));
        if (id !== undefined) break;
      }
      if (id === undefined) return [unk];
      ids.push(id);
      start = end;
    }
    return ids;
  };
}

/** Viterbi segmentation maximising the summed piece log-probabilities. */
function unigram(model: TokenizerJson['model']): (word: string) => number[] {
  const pieces = new Map<string, [number, number]>();
  for (const [id, [piece, score]] of (model.vocab as [string, number][]).entries()) pieces.set(piece, [id, score]);
  const unk = model.unk_id ?? 0;
  // A loop, not Math.max(...): real vocabularies have 250,000 pieces, past the argument limit.
  let maxLen = 1;
  for (const piece of pieces.keys()) maxLen = Math.max(maxLen, Array.from(piece).length);
  return (word) => {
    const chars = [...word];
    const best: { score: number; from: number; id: number }[] = [{ score: 0, from: -1, id: -1 }];
    for (let end = 1; end <= chars.length; end++) {
      let cell = { score: -Infinity, from: end - 1, id: unk };
      for (let start = Math.max(0, end - maxLen); start < end; start++) {
        const hit = pieces.get(chars.slice(start, end).join(''));
        const prev = best[start]?.score ?? -Infinity;
        if (hit && prev + hit[1] > cell.score) cell = { score: prev + hit[1], from: start, id: hit[0] };
      }
      if (cell.score === -Infinity) cell = { score: (best[end - 1]?.score ?? 0) - 100, from: end - 1, id: unk };
      best[end] = cell;
    }
    const ids: number[] = [];
    for (let at = chars.length; at > 0; at = best[at]?.from ?? 0) ids.unshift(best[at]?.id ?? unk);
    return ids;
  };
}

function template(post: PostProcessor | null | undefined): {
  single: TemplatePiece[];
  pair: TemplatePiece[];
  special: (name: string) => number[];
} {
  if (post?.type === 'TemplateProcessing' && post.single && post.pair) {
    const tokens = post.special_tokens ?? {};
    return { single: post.single, pair: post.pair, special: (name) => tokens[name]?.ids ?? [] };
  }
  const cls = post?.cls;
  const sep = post?.sep;
  if (!cls || !sep)
    return {
      single: [{ Sequence: { id: 'A', type_id: 0 } }],
      pair: [{ Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 0 } }],
      special: () => [],
    };
  const t = (name: string, type_id = 0): TemplatePiece => ({ SpecialToken: { id: name, type_id } });
  const s = (id: 'A' | 'B', type_id = 0): TemplatePiece => ({ Sequence: { id, type_id } });
  const pairTail =
    post.type === 'RobertaProcessing' ? [t(sep[0]), t(sep[0]), s('B'), t(sep[0])] : [t(sep[0]), s('B', 1), t(sep[0], 1)];
  return {
    single: [t(cls[0]), s('A'), t(sep[0])],
    pair: [t(cls[0]), s('A'), ...pairTail],
    special: (name) => (name === cls[0] ? [cls[1]] : name === sep[0] ? [sep[1]] : []),
  };
}

/** Words repeat: each word's pieces are worked out once (up to 100,000 words, then the memo starts over). */
function memoized(pieces: (word: string) => number[]): (word: string) => number[] {
  const memo = new Map<string, number[]>();
  return (word) => {
    let ids = memo.get(word);
    if (!ids) {
      if (memo.size >= 100_000) memo.clear();
      ids = pieces(word);
      memo.set(word, ids);
    }
    return ids;
  };
}

export function tokenizerFromJson(json: TokenizerJson, maxLength = 512): Tokenizer {
  const kind = json.model.type;
  const model = kind === 'Unigram' ? unigram(json.model) : kind === 'WordPiece' ? wordPiece(json.model) : null;
  if (!model)
    throw createError(
      'PP_CONFIG_INVALID',
      `tokenizer.json model type ${json.model.type} is not supported (WordPiece or Unigram)`,
    );
  const limit = json.truncation?.max_length ?? maxLength;
  const tpl = template(json.post_processor);
  const piecesOf = memoized(model);
  const pieces = (text: string): number[] => {
    const ids: number[] = [];
    for (const word of preTokenize(normalize(text, json.normalizer), json.pre_tokenizer))
      for (const id of piecesOf(word)) ids.push(id);
    return ids;
  };
  return {
    encode(text, pair) {
      const seqs = { A: pieces(text), B: pair === undefined ? [] : pieces(pair) };
      const specials = (pair === undefined ? tpl.single : tpl.pair).filter((p) => 'SpecialToken' in p).length;
      const room = Math.max(0, limit - specials);
      if (seqs.A.length + seqs.B.length > room) {
        seqs.B = seqs.B.slice(0, Math.max(0, room - Math.min(seqs.A.length, room)));
        seqs.A = seqs.A.slice(0, room - seqs.B.length);
      }
      const out: Encoding = { ids: [], typeIds: [] };
      for (const piece of pair === undefined ? tpl.single : tpl.pair) {
        const [ids, typeId] =
          'SpecialToken' in piece
            ? [tpl.special(piece.SpecialToken.id), piece.SpecialToken.type_id]
            : [seqs[piece.Sequence.id], piece.Sequence.type_id];
        for (const id of ids) {
          out.ids.push(id);
          out.typeIds.push(typeId);
        }
      }
      return out;
    },
  };
}

export async function loadTokenizer(modelDir: string): Promise<Tokenizer> {
  const path = join(modelDir, 'tokenizer.json');
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (err) {
    throw createError(
      'PP_CONFIG_INVALID',
      `No tokenizer.json in ${modelDir}; point PINPOINT_ONNX_MODEL_DIR at an exported model folder`,
      err,
    );
  }
  return tokenizerFromJson(JSON.parse(raw) as TokenizerJson);
}
