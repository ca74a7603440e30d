/**
 * A number rounded for an answer: to `decimals` places when given, else to two places at most
 * (whole numbers stay whole), trailing zeros dropped.
 */
export function rounded(n: number, decimals?: number): number {
  const places = decimals ?? 2;
  const f = 10 ** places;
  const r = Math.round(n * f) / f;
  return Object.is(r, -0) ? 0 : r;
}
