import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PdfBlock } from './blocks.js';
import { blockText, groupBlocks } from './blocks.js';
import type { DocumentModel } from './document-model.js';
import { readingOrder } from './layout.js';
import type { Line } from './lines.js';
import type { FontStyleLike, PageFrame, Quarter, Run, TextItemLike } from './runs.js';
import { toRun } from './runs.js';

export interface PageGeometry extends PageFrame {
  rotation: 0 | 90 | 180 | 270;
}

export function pageGeometry(page: PDFPageProxy): PageGeometry {
  const view = page.view;
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = view;
  const rotation = ((((page.rotate ?? 0) % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  return { view, width: Math.abs(x1 - x0) || 1, height: Math.abs(y1 - y0) || 1, rotation };
}

/** The text layer of one page as runs, one list per writing direction (most text first). */
export async function pageRuns(page: PDFPageProxy, geometry: PageGeometry): Promise<Run[][]> {
  const content = await page.getTextContent({ includeMarkedContent: false, disableNormalization: false });
  const styles = content.styles as Record<string, FontStyleLike>;
  const groups = new Map<Quarter, Run[]>();
  const items = content.items.filter((item) => 'str' in item) as TextItemLike[];
  const stacked = stackedGlyphs(items);
  for (const item of items) {
    const run = toRun(item, styles[item.fontName], geometry, stacked && item.str.trim().length <= 2);
    if (!run) continue;
    const group = groups.get(run.quarter);
    if (group) group.push(run);
    else groups.set(run.quarter, [run]);
  }
  // Margin notes and rotated labels come after the main text.
  return [...groups.values()].sort((a, b) => chars(b) - chars(a));
}

/** Runs of each writing direction → lines in reading order; `left out` runs (a table's) are not read. */
export function runsToLines(groups: Run[][], leftOut: ReadonlySet<Run>): Line[][] {
  return groups.map((runs) => readingOrder(leftOut.size > 0 ? runs.filter((r) => !leftOut.has(r)) : runs));
}

/** Lines → paragraph blocks, with what the document taught (line pitch, paragraph spacing, hyphenation). */
export function linesToBlocks(groups: Line[][], model: DocumentModel): PdfBlock[] {
  const blocks: PdfBlock[] = [];
  groups.forEach((lines, g) => {
    for (const group of groupBlocks(lines, model)) {
      const block = blockText(group, model);
      if (g > 0) block.marginal = true;
      if (block.text.trim() !== '') blocks.push(block);
    }
  });
  return blocks;
}

const cjkGlyph = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}、。，]$/u;

/**
 * Vertical writing set with a horizontal font, one glyph per item: consecutive CJK glyphs sit under one
 * another far more often than beside one another.
 */
function stackedGlyphs(items: TextItemLike[]): boolean {
  let below = 0;
  let beside = 0;
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1] as TextItemLike;
    const b = items[i] as TextItemLike;
    if (!cjkGlyph.test(a.str.trim()) || !cjkGlyph.test(b.str.trim())) continue;
    const size = Math.hypot(a.transform[2] ?? 0, a.transform[3] ?? 0) || 1;
    const dx = (b.transform[4] ?? 0) - (a.transform[4] ?? 0);
    const dy = (b.transform[5] ?? 0) - (a.transform[5] ?? 0);
    if (Math.abs(dx) < 0.2 * size && dy < -0.5 * size && dy > -1.6 * size) below++;
    else if (Math.abs(dy) < 0.2 * size && dx > 0.5 * size && dx < 1.6 * size) beside++;
  }
  return below >= 20 && below > 2 * beside;
}

function chars(runs: Run[]): number {
  return runs.reduce((n, r) => n + r.text.length, 0);
}
