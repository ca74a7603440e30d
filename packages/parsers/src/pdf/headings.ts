import type { PdfBlock } from './blocks.js';

/**
 * Headings by type size: short blocks in the page's main writing direction set larger than the body text
 * (the size carrying the most characters). Distinct heading sizes, largest first, become levels 1..6.
 */
export function headingLevels(blocks: PdfBlock[]): Map<PdfBlock, number> {
  const weight = new Map<number, number>();
  for (const b of blocks) {
    const size = Math.round(b.size * 2) / 2;
    weight.set(size, (weight.get(size) ?? 0) + b.text.length);
  }
  const body = [...weight].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const candidates = blocks.filter(
    (b) =>
      !b.marginal &&
      b.lines <= 3 &&
      b.text.length <= 200 &&
      /\p{L}.*\p{L}/u.test(b.text) &&
      !/[.。,，]$/.test(b.text) &&
      (b.size >= body * 1.15 || (b.size >= body * 1.05 && b.lines === 1 && b.text.length <= 80)),
  );
  const sizes = [...new Set(candidates.map((b) => Math.round(b.size * 2) / 2))].sort((a, b) => b - a);
  const levels = new Map<PdfBlock, number>();
  for (const b of candidates) levels.set(b, Math.min(sizes.indexOf(Math.round(b.size * 2) / 2) + 1, 6));
  return levels;
}
