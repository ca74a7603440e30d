import type { Period } from '@pinpoint/analysis';
import { findPeriods, periodsMatch } from '@pinpoint/analysis';
import type { IdentityPeriod } from '@pinpoint/core';
import type { CoverPeriod } from './document-identity.js';
import type { PeriodReader } from './question-scope.js';

/** Identity periods and the periods reader of @pinpoint/analysis, met: a cover's period read, a document's compared. */

/** A document's identity period as the periods reader compares it: a quarter, a dated event, or a fiscal year. */
function identityAsPeriod(p: IdentityPeriod, kind: string | undefined): Period {
  if (p.quarter !== undefined)
    return { kind: 'quarter', fiscal_year: p.fiscal_year, quarter: p.quarter as 1 | 2 | 3 | 4, year_label: 'end' };
  // an 8-K reports an event of a day; its "period" is that date
  if (kind === '8-K' && p.end_date) return { kind: 'date', fiscal_year: p.fiscal_year, end: p.end_date, year_label: 'end' };
  return { kind: 'fiscal-year', fiscal_year: p.fiscal_year, year_label: 'end', ...(p.end_date ? { end: p.end_date } : {}) };
}

export const PERIOD_READER: PeriodReader<Period> = {
  find: (text) => findPeriods(text),
  match: periodsMatch,
  ofIdentity: identityAsPeriod,
};

/** The period a cover page states first: a fiscal year or quarter with its year, else the date it carries. */
export function coverPeriod(coverText: string): CoverPeriod | undefined {
  const found = findPeriods(coverText).filter((p) => !p.weak);
  const year = found.find((p) => p.fiscal_year !== undefined && (p.kind === 'fiscal-year' || p.kind === 'quarter'));
  if (year?.fiscal_year !== undefined) {
    return {
      fiscal_year: year.fiscal_year,
      ...(year.quarter ? { quarter: year.quarter } : {}),
      ...(year.end?.length === 10 ? { end_date: year.end } : {}),
    };
  }
  const date = found.find((p) => p.end?.length === 10);
  return date?.end ? { end_date: date.end } : undefined;
}
