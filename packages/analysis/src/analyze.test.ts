import { describe, expect, it } from 'vitest';
import { analyze, createAnalyzer, termKind } from './analyze.js';

describe('analyze', () => {
  it('stems English, drops stop words and adds adjacent word pairs', () => {
    const terms = analyze('What class of ships is an example of large passenger liners?');
    expect(terms.filter((t) => termKind(t) === 'word')).toEqual(['class', 'ship', 'exampl', 'larg', 'passeng', 'liner']);
    expect(terms).toContain('_passeng_liner');
  });

  it('folds full-width forms with NFKC and lower-cases', () => {
    expect(analyze('ＡＢＣ１２３ Ｆｕｌｌ')).toEqual(analyze('abc123 full'));
  });

  it('emits Japanese dictionary words and character bigrams', () => {
    const terms = analyze('梅雨がみられる期間');
    expect(terms).toContain('梅雨');
    expect(terms).toContain('#梅雨');
    expect(terms.filter((t) => termKind(t) === 'bigram').length).toBeGreaterThan(3);
  });

  it('folds Traditional to Simplified Chinese at index and query time alike', () => {
    expect(analyze('國家風景區')).toEqual(analyze('国家风景区'));
  });

  it('is stable between a chunk and a query holding the same words', () => {
    const doc = analyze('負責管理馬祖國家風景區的單位為交通部觀光局。');
    for (const t of analyze('馬祖國家風景區')) expect(doc).toContain(t);
  });

  it('joins CJK text broken by a line wrap', () => {
    expect(analyze('東犬燈塔 創建')).toContain('#塔创');
  });

  it('records its options in its id', () => {
    expect(createAnalyzer({ bigrams: 'none' }).id).not.toEqual(createAnalyzer().id);
  });
});
