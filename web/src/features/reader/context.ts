/** The `count` elements before and after the cited one, in original order; empty when it is not found. */
export function surroundingElements<T extends { element_id: string }>(
  elements: readonly T[],
  elementId: string,
  count: number,
): { before: T[]; after: T[] } {
  const i = elements.findIndex((e) => e.element_id === elementId);
  if (i < 0) return { before: [], after: [] };
  return { before: elements.slice(Math.max(0, i - count), i), after: elements.slice(i + 1, i + 1 + count) };
}
