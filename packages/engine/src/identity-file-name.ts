import { isStopWord } from '@pinpoint/analysis';
import type { IdentityKind, IdentityName, IdentityPeriod } from '@pinpoint/core';

/**
 * What a file name says about its document: "3M_2018_10K.pdf" is 3M's 10-K for 2018,
 * "AMCOR_2023Q2_10Q.pdf" Amcor's 10-Q for the second quarter of fiscal 2023,
 * "PEPSICO_2023_8K_dated-2023-05-05.pdf" an 8-K of 5 May 2023. Words that are a kind, a period,
 * a date or a number are read as such; the words before them are the name.
 */

/** Kinds a file name or a title may carry, keyed by the word as folded (lower case, no dashes). */
export const KIND_WORDS: Record<string, string> = {
  '10k': '10-K',
  '10q': '10-Q',
  '8k': '8-K',
  '20f': '20-F',
  '6k': '6-K',
  '40f': '40-F',
  earnings: 'earnings release',
  annualreport: 'annual report',
  有価証券報告書: '有価証券報告書',
  四半期報告書: '四半期報告書',
  決算短信: '決算短信',
  年度报告: '年度报告',
  年报: '年度报告',
  半年度报告: '半年度报告',
  季度报告: '季度报告',
  contract: 'contract',
  agreement: 'contract',
  manual: 'manual',
};

/** Words of a file name that say nothing about what the document is about. */
const NOISE = new Set(['dated', 'final', 'draft', 'copy', 'v1', 'v2', 'v3', 'rev', 'form', 'report', 'annual', 'exhibit']);

const YEAR = /^(19|20)\d{2}$/;
const YEAR_QUARTER = /^((?:19|20)\d{2})q([1-4])$/i;
const QUARTER_YEAR = /^q([1-4])((?:19|20)\d{2})$/i;
const FY_YEAR = /^fy((?:19|20)?\d{2})$/i;

export interface FileNameIdentity {
  names: IdentityName[];
  kind: IdentityKind | null;
  period: IdentityPeriod | null;
}

function fullYear(y: string): number {
  return y.length === 2 ? 2000 + Number(y) : Number(y);
}

/** A word as a period, or undefined. */
function periodWord(word: string): { fiscal_year: number; quarter?: number } | undefined {
  if (YEAR.test(word)) return { fiscal_year: Number(word) };
  const yq = YEAR_QUARTER.exec(word);
  if (yq) return { fiscal_year: Number(yq[1]), quarter: Number(yq[2]) };
  const qy = QUARTER_YEAR.exec(word);
  if (qy) return { fiscal_year: Number(qy[2]), quarter: Number(qy[1]) };
  const fy = FY_YEAR.exec(word);
  return fy ? { fiscal_year: fullYear(fy[1] as string) } : undefined;
}

const DATE = /((?:19|20)\d{2})-(\d{2})-(\d{2})/;

/** The identity a file name gives, each part marked as read from the file name. */
export function identityFromFileName(fileName: string): FileNameIdentity {
  const stem = fileName.normalize('NFKC').replace(/\.[^.]+$/, '');
  const date = DATE.exec(stem);
  const words = stem
    .replace(DATE, ' ')
    .split(/[\s_.,()[\]]+|(?<=[^\d])-|-(?=[^\d])/u)
    .filter((w) => w.length > 0);
  const nameParts: string[] = [];
  let kind: string | undefined;
  let period: { fiscal_year: number; quarter?: number } | undefined;
  let named = false;
  for (const word of words) {
    const folded = word.toLowerCase().replace(/-/g, '');
    const k = KIND_WORDS[folded];
    const p = periodWord(word);
    if (k) kind ??= k;
    else if (p) period ??= p;
    else if (!NOISE.has(folded) && !/^\d+$/.test(word) && !named) nameParts.push(word);
    // the name is the run of words before the first kind or period word
    if ((k || p) && nameParts.length > 0) named = true;
  }
  // words that name nothing ("In_2019_gross_margin_decreased.csv" is about no company called In)
  const name = nameParts.every((w) => isStopWord(w.toLowerCase())) ? '' : nameParts.join(' ').trim();
  const endDate = date ? `${date[1]}-${date[2]}-${date[3]}` : undefined;
  const fiscalYear = period?.fiscal_year ?? (date ? Number(date[1]) : undefined);
  return {
    names: name.length >= 2 ? [{ value: name, source: 'file_name' }] : [],
    kind: kind ? { value: kind, source: 'file_name' } : null,
    period:
      fiscalYear !== undefined
        ? {
            fiscal_year: fiscalYear,
            ...(period?.quarter ? { quarter: period.quarter } : {}),
            ...(endDate ? { end_date: endDate } : {}),
            source: 'file_name',
          }
        : null,
  };
}
