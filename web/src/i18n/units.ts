/** A measure in a language's words through Intl's units ("2.0 kB", "2.5 秒", "12.0毫秒"), with fixed decimals. */
export function formatUnit(locale: string, unit: string, value: number, digits = 0): string {
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}
