import { foldHan } from './fold.js';
import { isStopWord, stemWord } from './latin.js';
import { hasKana, isHanCodepoint } from './scripts.js';

/**
 * The one analyzer used at index and query time. Terms carry their kind in a prefix so the
 * index can weight them apart: plain = word (Latin stem or CJK dictionary word),
 * `#xy` = CJK character bigram, `@x` = lone CJK character.
 */
export interface AnalyzerOptions {
  /** Fold Traditional Han to Simplified (index and query alike). */
  foldHan: boolean;
  /** Emit CJK character bigrams. 'han' = only pairs holding a Han or katakana character. */
  bigrams: 'none' | 'all' | 'han';
  /** Emit Intl.Segmenter dictionary words for CJK runs. */
  cjkWords: boolean;
  /** Stem Latin words (Porter). */
  stem: boolean;
  /** Drop English stop words. */
  stopWords: boolean;
  /** Also emit adjacent Latin word pairs (`_a_b`), a cheap phrase/proximity signal. */
  wordPairs: boolean;
}

export const DEFAULT_ANALYZER_OPTIONS: Readonly<AnalyzerOptions> = Object.freeze({
  foldHan: true,
  bigrams: 'all',
  cjkWords: true,
  stem: true,
  stopWords: true,
  wordPairs: true,
});

export interface Analyzer {
  readonly id: string;
  analyze(text: string): string[];
}

const CJK =
  '\\u3040-\\u30ff\\u31f0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\u3005\\uac00-\\ud7af\\u{20000}-\\u{3134f}';
const RUN = new RegExp(`([${CJK}]+)|((?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}])+)`, 'gu');
/** Whitespace between two CJK characters is a line wrap (PDF text), not a word break. */
const CJK_WRAP = new RegExp(`([${CJK}])\\s+(?=[${CJK}])`, 'gu');
/** Intl.Segmenter slows down badly on long strings: feed it bounded pieces. */
const MAX_SEGMENT = 200;

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(locale: 'ja' | 'zh'): Intl.Segmenter {
  let s = segmenters.get(locale);
  if (!s) {
    s = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, s);
  }
  return s;
}

export function normalizeForIndex(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

export function createAnalyzer(options: Partial<AnalyzerOptions> = {}): Analyzer {
  const o: AnalyzerOptions = { ...DEFAULT_ANALYZER_OPTIONS, ...options };
  const id = `pp-analyzer@1:${o.foldHan ? 'f' : ''}${o.bigrams}${o.cjkWords ? 'w' : ''}${o.stem ? 's' : ''}${o.stopWords ? 'x' : ''}${o.wordPairs ? 'p' : ''}`;
  return {
    id,
    analyze(text: string): string[] {
      const norm = normalizeForIndex(text).replace(CJK_WRAP, '$1');
      const locale = hasKana(norm) ? 'ja' : 'zh';
      const out: string[] = [];
      const words: string[] = [];
      for (const m of norm.matchAll(RUN)) {
        if (m[1] !== undefined) cjkTerms(o.foldHan ? foldHan(m[1]) : m[1], locale, o, out);
        else if (m[2] !== undefined) latinTerm(m[2], o, words);
      }
      out.push(...words);
      if (o.wordPairs) for (let i = 0; i + 1 < words.length; i++) out.push(`_${words[i]}_${words[i + 1]}`);
      return out;
    },
  };
}

function latinTerm(word: string, o: AnalyzerOptions, out: string[]): void {
  if (o.stopWords && isStopWord(word)) return;
  out.push(o.stem ? stemWord(word) : word);
}

function cjkTerms(run: string, locale: 'ja' | 'zh', o: AnalyzerOptions, out: string[]): void {
  const chars = Array.from(run);
  if (o.cjkWords) {
    const words = segmenter(locale);
    for (let i = 0; i < chars.length; i += MAX_SEGMENT) {
      const piece = chars.length <= MAX_SEGMENT ? run : chars.slice(i, i + MAX_SEGMENT).join('');
      for (const seg of words.segment(piece)) {
        if (!seg.isWordLike) continue;
        if (seg.segment.length === 1 && !isHanCodepoint(seg.segment.codePointAt(0) ?? 0)) continue;
        out.push(seg.segment);
      }
    }
  }
  if (chars.length === 1) {
    out.push(`@${chars[0]}`);
    return;
  }
  if (o.bigrams === 'none') return;
  for (let i = 0; i + 1 < chars.length; i++) {
    const a = chars[i] as string;
    const b = chars[i + 1] as string;
    if (o.bigrams === 'han' && !strongChar(a) && !strongChar(b)) continue;
    out.push(`#${a}${b}`);
  }
}

function strongChar(c: string): boolean {
  const cp = c.codePointAt(0) ?? 0;
  return isHanCodepoint(cp) || (cp >= 0x30a1 && cp <= 0x30fa);
}

/** Kind of a term produced by the analyzer. */
export function termKind(term: string): 'word' | 'bigram' | 'unigram' | 'pair' {
  if (term.startsWith('#')) return 'bigram';
  if (term.startsWith('_')) return 'pair';
  if (term.startsWith('@')) return 'unigram';
  return 'word';
}

const defaultAnalyzer = createAnalyzer();

/** The default analyzer's id: goes into every version's recipe. */
export const ANALYZER_ID = defaultAnalyzer.id;

/** Terms of a text with the default analyzer (index and query time alike). */
export function analyze(text: string): string[] {
  return defaultAnalyzer.analyze(text);
}
