import type { DocumentIdentity, Element, IdentityName, IdentityPeriod, IdentitySource } from '@pinpoint/core';
import { coverElements, fromTitle, kindFromCover, namesFromCover } from './identity-cover.js';
import { identityFromFileName } from './identity-file-name.js';
import { nameKey } from './identity-names.js';

/**
 * A version's identity (DESIGN.md §3 "Identity"), read at ingest from its file name, its declared
 * title and its cover page: the names it is about, its kind and its period, each marked with where
 * it was read. Not the user identity of auth (identity.ts).
 */
export type CoverPeriod = Partial<Omit<IdentityPeriod, 'source'>>;

export interface IdentityInput {
  fileName: string;
  elements: Element[];
  title?: string | undefined;
  /** The period the cover's words give (the periods reader): a fiscal year, or only a date. */
  coverPeriod?: (coverText: string) => CoverPeriod | undefined;
}

/** Names in reading order, one per key: the cover's full name and the file name's short one both stay when they key apart. */
function distinctNames(names: IdentityName[]): IdentityName[] {
  const seen = new Set<string>();
  return names.filter((n) => {
    const key = nameKey(n.value);
    if (key === undefined || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The cover's fiscal year where it states one (the report's own label, with its end date), the
 * file name's quarter where the cover gives none; a cover that only dates the report (10-Q, 8-K)
 * adds that date to the file name's period.
 */
function mergedPeriod(fromFile: IdentityPeriod | null, cover: CoverPeriod | undefined): IdentityPeriod | null {
  if (cover?.fiscal_year !== undefined) {
    const quarter = cover.quarter ?? (fromFile?.fiscal_year === cover.fiscal_year ? fromFile.quarter : undefined);
    const end = cover.end_date ?? fromFile?.end_date;
    return {
      fiscal_year: cover.fiscal_year,
      ...(quarter ? { quarter } : {}),
      ...(end ? { end_date: end } : {}),
      source: 'cover_page',
    };
  }
  if (!cover?.end_date) return fromFile;
  if (fromFile) return fromFile.end_date ? fromFile : { ...fromFile, end_date: cover.end_date };
  return { fiscal_year: Number(cover.end_date.slice(0, 4)), end_date: cover.end_date, source: 'cover_page' };
}

/** Kinds whose cover states the period the document covers (a report, a filing): other documents' first dates are history. */
const PERIODIC_KINDS = new Set([
  '10-K',
  '10-Q',
  '8-K',
  '20-F',
  '6-K',
  '40-F',
  'annual report',
  'earnings release',
  '有価証券報告書',
  '四半期報告書',
  '決算短信',
  '年度报告',
  '半年度报告',
  '季度报告',
]);

/** A period the identity can hold: a fiscal year a report could have (a history article's 1685 is none). */
function plausible(period: IdentityPeriod | null): IdentityPeriod | null {
  return period && period.fiscal_year >= 1900 && period.fiscal_year <= 2200 ? period : null;
}

export function readDocumentIdentity(input: IdentityInput): DocumentIdentity {
  const file = identityFromFileName(input.fileName);
  const cover = coverElements(input.elements);
  const covered = namesFromCover(cover);
  const title = fromTitle(input.title);
  const named = (value: string, source: IdentitySource): IdentityName => ({ value, source });
  const names = distinctNames([
    ...covered.names.map((n) => named(n, 'cover_page')),
    ...(title.name ? [named(title.name, 'title_metadata')] : []),
    ...file.names,
    ...covered.symbols.map((s) => named(s, 'cover_page')),
  ]);
  const coverKind = kindFromCover(cover);
  const kind = coverKind
    ? { value: coverKind, source: 'cover_page' as const }
    : title.kind
      ? { value: title.kind, source: 'title_metadata' as const }
      : file.kind;
  const coverText = cover.map((e) => e.text).join('\n');
  const coverPeriod = kind && PERIODIC_KINDS.has(kind.value) ? input.coverPeriod?.(coverText) : undefined;
  return { names, kind, period: plausible(mergedPeriod(file.period, coverPeriod)) };
}
