import type { DocumentIdentity } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { identityFromFileName } from './identity-file-name.js';
import { PERIOD_READER } from './identity-periods.js';
import type { ScopeCandidate } from './question-scope.js';
import { scopeQuestion } from './question-scope.js';

/** A shelf as the file names alone describe it, plus the names a cover would add. */
function shelf(files: [string, string[]][]): ScopeCandidate[] {
  return files.map(([file, coverNames], i) => {
    const read = identityFromFileName(file);
    const identity: DocumentIdentity = {
      names: [...coverNames.map((value) => ({ value, source: 'cover_page' as const })), ...read.names],
      kind: read.kind,
      period: read.period,
    };
    return { document_id: `doc_${i}`, version_id: `ver_${i}`, file, identity };
  });
}

const SHELF = shelf([
  ['NIKE_2018_10K.pdf', ['NIKE, Inc.']],
  ['NIKE_2019_10K.pdf', ['NIKE, Inc.']],
  ['NIKE_2021_10K.pdf', ['NIKE, Inc.']],
  ['GENERALMILLS_2019_10K.pdf', ['GENERAL MILLS, INC.']],
  ['AMERICANEXPRESS_2022_10K.pdf', ['American Express Company']],
  ['BLOCK_2020_10K.pdf', ['SQUARE, INC.']],
  ['JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf', ['Johnson & Johnson', 'JNJ']],
  ['JOHNSON_JOHNSON_2022_10K.pdf', ['JOHNSON & JOHNSON', 'JNJ']],
]);

const files = (question: string) => scopeQuestion(question, SHELF, PERIOD_READER)?.documents.map((d) => d.file);

describe('scopeQuestion', () => {
  it('picks the named company’s report of the named year, and says why', () => {
    const scope = scopeQuestion('What was Nike’s revenue in FY2019?', SHELF, PERIOD_READER);
    expect(scope?.documents.map((d) => d.file)).toEqual(['NIKE_2019_10K.pdf']);
    expect(scope?.summary).toBe("Searched NIKE_2019_10K.pdf — named by 'Nike' and 'FY2019'");
    expect(files('What were General Mills’ net sales in fiscal 2019?')).toEqual(['GENERALMILLS_2019_10K.pdf']);
  });

  it('reads the year as the fiscal year in its other spellings', () => {
    expect(files('Net income of NIKE for the fiscal year ended May 31, 2018')).toEqual(['NIKE_2018_10K.pdf']);
    expect(files('Did Johnson & Johnson’s sales grow in Q2 of FY2023?')).toEqual(['JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf']);
  });

  it('takes the report that covers every year asked (a 10-K holds its prior year)', () => {
    expect(files('How did Nike’s gross margin change between FY2018 and FY2019?')).toEqual(['NIKE_2019_10K.pdf']);
  });

  it('asks the newest report of a company named without a period, and says so; each company of a comparison', () => {
    const scope = scopeQuestion('Who are Nike’s main competitors?', SHELF, PERIOD_READER);
    expect(scope?.documents.map((d) => [d.file, d.newest])).toEqual([['NIKE_2021_10K.pdf', 3]]);
    expect(scope?.summary).toBe("Searched NIKE_2021_10K.pdf — named by 'Nike' (the newest of 3 reports)");
    // a quarter's earnings after the year's 10-K is the newer
    expect(files('What drove Johnson & Johnson’s sales?')).toEqual(['JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf']);
    expect(files('Compare Nike and General Mills in FY2019')).toEqual(['NIKE_2019_10K.pdf', 'GENERALMILLS_2019_10K.pdf']);
  });

  it('finds a company by its cover name, its ticker, a former name, and its words’ beginnings', () => {
    expect(files('What drove JNJ’s sales in FY2022?')).toEqual(['JOHNSON_JOHNSON_2022_10K.pdf']);
    expect(files('What was Square’s revenue in 2020?')).toEqual(['BLOCK_2020_10K.pdf']);
    expect(files('Is AMEX’s card member base growing as of 2022?')).toEqual(['AMERICANEXPRESS_2022_10K.pdf']);
  });

  it('scopes nothing on a period alone, on a company no document is about, or on a lower-case common word', () => {
    expect(files('What was total revenue in FY2019?')).toBeUndefined();
    expect(files('What was Apple’s revenue in FY2019?')).toBeUndefined();
    expect(files('How large is a block of shares traded in 2020?')).toBeUndefined();
  });

  it('keeps a named company’s reports when none covers the period asked', () => {
    expect(files('What is Nike’s outlook for FY2030?')).toEqual(['NIKE_2018_10K.pdf', 'NIKE_2019_10K.pdf', 'NIKE_2021_10K.pdf']);
  });
});

describe('scopeQuestion on documents that are not reports', () => {
  const articles: ScopeCandidate[] = [
    {
      document_id: 'a',
      version_id: 'va',
      file: '006_ラオス.pdf',
      identity: { names: [{ value: 'ラオス', source: 'file_name' }], kind: null, period: null },
    },
    {
      document_id: 'b',
      version_id: 'vb',
      file: '042_リズム.html',
      identity: { names: [{ value: 'リズム', source: 'file_name' }], kind: null, period: null },
    },
    {
      document_id: 'c',
      version_id: 'vc',
      file: 'トヨタ_2023_有価証券報告書.pdf',
      identity: {
        names: [
          { value: 'トヨタ自動車株式会社', source: 'cover_page' },
          { value: 'トヨタ', source: 'file_name' },
        ],
        kind: { value: '有価証券報告書', source: 'cover_page' },
        period: { fiscal_year: 2023, source: 'file_name' },
      },
    },
  ];
  const scoped = (q: string) => scopeQuestion(q, articles, PERIOD_READER)?.documents.map((d) => d.file);

  it('an article named by its subject is not what every question mentioning it asks of', () => {
    expect(scoped('ラオスの首都は')).toBeUndefined();
  });

  it('a katakana name inside a longer word names nothing; a report’s company in a Japanese question does', () => {
    expect(scoped('ジャーナリズムと何の産業？')).toBeUndefined();
    expect(scoped('トヨタの2023年3月期の営業利益は？')).toEqual(['トヨタ_2023_有価証券報告書.pdf']);
  });
});

describe('a company filed as parts, one file each', () => {
  const parts = shelf([
    ['059_三井不動産株式会社__連結包括利益計算書.docx', []],
    ['093_三井不動産株式会社__表紙.xlsx', ['三井不動産株式会社']],
    ['110_三井不動産株式会社__経営指標等.html', []],
    ['014_株式会社キーエンス__損益計算書.xlsx', []],
    ['Laos.md', []],
  ]).map((p, i) =>
    i === 1 ? { ...p, identity: { ...p.identity, kind: { value: '有価証券報告書', source: 'cover_page' as const } } } : p,
  );
  const files = (question: string) =>
    scopeQuestion(question, parts, PERIOD_READER)
      ?.documents.map((d) => d.file)
      .sort();

  it('scopes a question naming the company to the filing and every part that holds its name', () => {
    expect(files('三井不動産株式会社の2020年の連結決算における「仕掛品」は？')).toEqual([
      '059_三井不動産株式会社__連結包括利益計算書.docx',
      '093_三井不動産株式会社__表紙.xlsx',
      '110_三井不動産株式会社__経営指標等.html',
    ]);
  });
  it('a part joins only a company the question names through a filing: no filing, no scope', () => {
    expect(files('株式会社キーエンスの2019年の「営業外費用」は？')).toBeUndefined();
  });
});
