import type { PdfBlock } from './blocks.js';

const sizeKey = (size: number): number => Math.round(size * 2) / 2;

/** "5.1 Hyper Parameter Optimization", "3 Dense Passage Retriever": numbered section titles at body size. */
const numbered = /^(\d+(?:\.\d+)+\.?|\d+)\s+\p{Lu}/u;

function isTitleLike(b: PdfBlock): boolean {
  return !b.marginal && b.lines <= 3 && b.text.length <= 200 && /\p{L}.*\p{L}/u.test(b.text) && !/[.。,，:：;]$/.test(b.text);
}

/**
 * Headings by type size: short blocks in the page's main writing direction set larger than the body text
 * (the size carrying the most characters); distinct sizes, largest first, become levels 1..k. Numbered
 * one-line section titles at body size follow them, one level per numbering depth.
 */
export function headingLevels(blocks: PdfBlock[]): Map<PdfBlock, number> {
  const weight = new Map<number, number>();
  for (const b of blocks) weight.set(sizeKey(b.size), (weight.get(sizeKey(b.size)) ?? 0) + b.text.length);
  const body = [...weight].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const bySize = blocks.filter(
    (b) => isTitleLike(b) && (b.size >= body * 1.15 || (b.size >= body * 1.05 && b.lines === 1 && b.text.length <= 80)),
  );
  const sizes = [...new Set(bySize.map((b) => sizeKey(b.size)))].sort((a, b) => b - a);
  const levels = new Map<PdfBlock, number>();
  for (const b of bySize) levels.set(b, Math.min(sizes.indexOf(sizeKey(b.size)) + 1, 6));
  for (const b of blocks) {
    const m = numbered.exec(b.text);
    if (!m?.[1] || levels.has(b) || !isTitleLike(b) || b.lines > 1 || b.text.length > 80 || b.size < body * 0.98) continue;
    levels.set(b, Math.min(sizes.length + m[1].replace(/\.$/, '').split('.').length, 6));
  }
  return levels;
}
