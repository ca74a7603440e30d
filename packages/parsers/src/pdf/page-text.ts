import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PdfBlock } from './blocks.js';
import { blockText, groupBlocks } from './blocks.js';
import { readingOrder } from './layout.js';
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

/** The text layer of one page as blocks in reading order (empty when the page has no text layer). */
export async function pageBlocks(page: PDFPageProxy, geometry: PageGeometry): Promise<PdfBlock[]> {
  const content = await page.getTextContent({ includeMarkedContent: false, disableNormalization: false });
  const styles = content.styles as Record<string, FontStyleLike>;
  const runs: Run[] = [];
  for (const item of content.items) {
    if (!('str' in item)) continue;
    const run = toRun(item as TextItemLike, styles[item.fontName], geometry);
    if (run) runs.push(run);
  }
  const groups = new Map<Quarter, Run[]>();
  for (const run of runs) {
    const group = groups.get(run.quarter);
    if (group) group.push(run);
    else groups.set(run.quarter, [run]);
  }
  // The writing direction with the most text first; others (margin notes, rotated labels) after it.
  const ordered = [...groups.values()].sort((a, b) => chars(b) - chars(a));
  const blocks: PdfBlock[] = [];
  for (const group of ordered) {
    for (const lines of groupBlocks(readingOrder(group))) {
      const block = blockText(lines);
      if (block.text.trim() !== '') blocks.push(block);
    }
  }
  return blocks;
}

function chars(runs: Run[]): number {
  return runs.reduce((n, r) => n + r.text.length, 0);
}
