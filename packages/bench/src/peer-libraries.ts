/**
 * The JavaScript search libraries Pinpoint's retrieval is compared with (`pnpm bench --peer`), each set up
 * as its documentation recommends for the language: for English their own tokenizer and English
 * analysis (stemmer, stop words) where they ship one; for Japanese and Chinese, which none of them
 * segments, a word tokenizer by `Intl.Segmenter` for the set's language (word-like segments, lower case),
 * used for the documents and the questions alike.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { create, insertMultiple, search } from '@orama/orama';
import { stopwords as englishStopwords } from '@orama/stopwords/english';
import { Charset, Encoder, Index } from 'flexsearch';
import EnglishPreset from 'flexsearch/lang/en';
import lunr from 'lunr';
import MiniSearch from 'minisearch';

export type Script = 'latin' | 'cjk';

/** A built index: the indexes (into the texts it was built from) of the best `k` for a question. */
type PeerSearch = (question: string, k: number) => Promise<number[]>;

export interface PeerLibrary {
  name: string;
  /** What the library is given, per script: the page and the README say it. */
  setup: Record<Script, string>;
  build(texts: readonly string[], script: Script, lang: string): Promise<PeerSearch>;
}

/** The installed version of a package (its package.json, found above its entry point). */
export function packageVersion(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (let i = 0; i < 6; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name && pkg.version) return pkg.version;
    } catch {}
  }
  return 'unknown';
}

/** Word-like segments of `Intl.Segmenter` in the set's language, lower-cased. */
export function segmenterTokens(lang: string): (text: string) => string[] {
  const segmenter = new Intl.Segmenter(lang, { granularity: 'word' });
  return (text) => {
    const out: string[] = [];
    for (const s of segmenter.segment(text)) if (s.isWordLike) out.push(s.segment.toLowerCase());
    return out;
  };
}

const SEGMENTER = 'a word tokenizer by `Intl.Segmenter` in the set’s language (word-like segments, lower case)';

const minisearch: PeerLibrary = {
  name: 'minisearch',
  setup: {
    latin: 'defaults: its tokenizer, lower case, BM25+, terms OR-ed',
    cjk: `\`tokenize\`: ${SEGMENTER}; BM25+, terms OR-ed`,
  },
  async build(texts, script, lang) {
    const tokenize = script === 'cjk' ? segmenterTokens(lang) : undefined;
    const ms = new MiniSearch<{ id: number; text: string }>({ fields: ['text'], ...(tokenize ? { tokenize } : {}) });
    ms.addAll(texts.map((text, id) => ({ id, text })));
    return async (q, k) =>
      ms
        .search(q)
        .slice(0, k)
        .map((r) => r.id as number);
  },
};

const flexsearch: PeerLibrary = {
  name: 'flexsearch',
  setup: {
    latin:
      'an `Index` with the English language pack (`flexsearch/lang/en`: stemmer, stop words) on `Charset.Default`, `tokenize: "strict"`, the context index, `suggest: true` (documents need not hold every term)',
    cjk: `an \`Index\` whose \`encode\` is ${SEGMENTER}, \`tokenize: "strict"\`, the context index, \`suggest: true\``,
  },
  async build(texts, script, lang) {
    const index =
      script === 'cjk'
        ? new Index({ encode: segmenterTokens(lang), tokenize: 'strict', context: true })
        : new Index({ encoder: new Encoder(Charset.Default).assign(EnglishPreset), tokenize: 'strict', context: true });
    texts.forEach((text, id) => {
      index.add(id, text);
    });
    return async (q, k) => (index.search(q, { limit: k, suggest: true }) as number[]).slice(0, k);
  },
};

const orama: PeerLibrary = {
  name: '@orama/orama',
  setup: {
    latin:
      'its English tokenizer with `stemming: true` (its English stemmer) and the English stop words of `@orama/stopwords`, BM25, default threshold (documents holding any term)',
    cjk: `a custom tokenizer: ${SEGMENTER}; BM25, default threshold`,
  },
  async build(texts, script, lang) {
    const words = segmenterTokens(lang);
    const tokenizer =
      script === 'cjk'
        ? { language: lang, normalizationCache: new Map<string, string>(), tokenize: (raw: string) => words(raw) }
        : { language: 'english', stemming: true, stopWords: englishStopwords };
    const db = create({ schema: { text: 'string' } as const, components: { tokenizer } });
    await insertMultiple(
      db,
      texts.map((text, id) => ({ id: String(id), text })),
    );
    return async (q, k) => {
      const res = await search(db, { term: q, properties: ['text'], limit: k });
      return res.hits.map((h) => Number(h.id));
    };
  },
};

const lunrLibrary: PeerLibrary = {
  name: 'lunr',
  setup: {
    latin:
      'its default English pipeline (trimmer, stop words, stemmer) for the documents and the question’s terms, BM25, terms optional',
    cjk: `the builder's \`tokenizer\`: ${SEGMENTER}; its pipelines emptied (the trimmer and the English stemmer would strip or mangle CJK words), BM25, terms optional`,
  },
  async build(texts, script, lang) {
    const words = segmenterTokens(lang);
    const idx = lunr(function (this: lunr.Builder) {
      this.ref('id');
      this.field('text');
      if (script === 'cjk') {
        this.pipeline.reset();
        this.searchPipeline.reset();
        this.tokenizer = Object.assign((obj: unknown) => words(String(obj ?? '')).map((w) => new lunr.Token(w, {})), {
          separator: lunr.tokenizer.separator,
        });
      }
      texts.forEach((text, id) => {
        this.add({ id: String(id), text });
      });
    });
    return async (q, k) =>
      idx
        .query((query) => {
          query.term(script === 'cjk' ? words(q) : lunr.tokenizer(q), {});
        })
        .slice(0, k)
        .map((r) => Number(r.ref));
  },
};

export const peerLibraries: PeerLibrary[] = [minisearch, flexsearch, orama, lunrLibrary];
