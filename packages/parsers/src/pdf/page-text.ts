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

/** The text layer of one page as lines in reading order, one list per writing direction (most text first). */
export async function pageLines(page: PDFPageProxy, geometry: PageGeometry): Promise<Line[][]> {
  const content = await page.getTextContent({ includeMarkedContent: false, disableNormalization: false });
  const styles = content.styles as Record<string, FontStyleLike>;
  const groups = new Map<Quarter, Run[]>();
  for (const item of content.items) {
    if (!('str' in item)) continue;
    const run = toRun(item as TextItemLike, styles[item.fontName], geometry);
    if (!run) continue;
    const group = groups.get(run.quarter);
    if (group) group.push(run);
    else groups.set(run.quarter, [run]);
  }
  // Margin notes and rotated labels come after the main text.
  return [...groups.values()].sort((a, b) => chars(b) - chars(a)).map(readingOrder);
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

function chars(runs: Run[]): number {
  return runs.reduce((n, r) => n + r.text.length, 0);
}
