interface ContextElement {
  element_id: string;
  type: string;
  level?: number | undefined;
  section_path: string[];
  text: string;
}

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

const startsWith = (path: readonly string[], prefix: readonly string[]) => prefix.every((p, i) => path[i] === p);

/**
 * The contiguous run of elements around the cited one that share its heading trail cut to `depth`
 * headings (depth = trail length: the enclosing section; one less: its parent), capped at `limit`.
 */
export function sectionElements<T extends ContextElement>(
  elements: readonly T[],
  elementId: string,
  depth: number,
  limit = 80,
): T[] {
  const i = elements.findIndex((e) => e.element_id === elementId);
  const cited = elements[i];
  if (!cited) return [];
  const prefix = cited.section_path.slice(0, Math.max(0, depth));
  let from = i;
  let to = i;
  while (from > 0 && startsWith(elements[from - 1]?.section_path ?? [], prefix) && i - from < limit / 2) from--;
  while (to + 1 < elements.length && startsWith(elements[to + 1]?.section_path ?? [], prefix) && to - from + 1 < limit) to++;
  return elements.slice(from, to + 1);
}

export interface TocEntry {
  element_id: string;
  level: number;
  text: string;
  /** The heading of the section that holds the citation. */
  current: boolean;
}

/** Headings in document order; the innermost heading of the cited element's trail is marked current. */
export function tableOfContents(elements: readonly ContextElement[], elementId: string): TocEntry[] {
  const i = elements.findIndex((e) => e.element_id === elementId);
  let currentId: string | null = null;
  const trail = elements[i]?.section_path ?? [];
  for (let k = i; k >= 0 && trail.length > 0; k--) {
    const e = elements[k];
    if (e && (e.type === 'heading' || e.type === 'title') && e.text.trim() === trail.at(-1)?.trim()) {
      currentId = e.element_id;
      break;
    }
  }
  return elements
    .filter((e) => e.type === 'heading' || e.type === 'title')
    .map((e) => ({ element_id: e.element_id, level: e.level ?? 1, text: e.text, current: e.element_id === currentId }));
}
