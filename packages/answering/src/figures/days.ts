/** Days of months as English text names them ("1 January", "December 31"): a balance's dated row, the day a question names. */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = 'january|february|march|april|may|june|july|august|september|october|november|december';

/** A day of a month a text names, in English ("1 January", "December 31"): the month and day, "1-1", "12-31". */
const DAY_MONTH = new RegExp(
  String.raw`\b(?:(\d{1,2})(?:st|nd|rd|th)?\s+(${MONTH_NAMES})|(${MONTH_NAMES})\s+(\d{1,2})(?:st|nd|rd|th)?)\b`,
  'giu',
);

/** The days of months a text names ("1-1" for "1 January 2018", "At 1 January"). */
export function dayMonths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(DAY_MONTH)) {
    const month = MONTHS.indexOf((m[2] ?? m[3] ?? '').slice(0, 3).toLowerCase()) + 1;
    const day = Number(m[1] ?? m[4]);
    if (month > 0 && day >= 1 && day <= 31 && !out.includes(`${month}-${day}`)) out.push(`${month}-${day}`);
  }
  return out;
}
