import type { Diagnostic, Element, PageAnchor, PageInfo, ParseContext, ParseOutput } from '@pinpoint/core';
import { createError, elementId, SOURCE_MAP_SCHEMA_VERSION } from '@pinpoint/core';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { ParseOptions, ParserEntry } from '../registry.js';
import type { PdfBlock } from './blocks.js';
import { headingLevels } from './headings.js';
import { openPdf } from './load.js';
import { pageBlocks, pageGeometry } from './page-text.js';
import { recognizeTextlessPage } from './textless-page.js';

interface PageResult {
  info: PageInfo;
  blocks: PdfBlock[];
  ocr: boolean;
  confidence?: number;
}

async function readPage(
  doc: PDFDocumentProxy,
  bytes: Uint8Array,
  index: number,
  ctx: ParseContext,
  options: ParseOptions,
  labels: string[] | null,
  artifact: 'original' | 'pdf',
  diagnostics: Diagnostic[],
): Promise<PageResult> {
  const page = await doc.getPage(index + 1);
  try {
    const g = pageGeometry(page);
    const label = labels?.[index];
    const info: PageInfo = { page_index: index, width: g.width, height: g.height, unit: 'pt', rotation: g.rotation, artifact };
    if (label) info.page_label = label;
    const blocks = await pageBlocks(page, g);
    if (blocks.length > 0) return { info: { ...info, text_source: 'text-layer' }, blocks, ocr: false };
    const textless = await recognizeTextlessPage(
      bytes,
      { page_index: index, width: g.width, height: g.height, rotation: g.rotation },
      ctx,
      options,
    );
    diagnostics.push(...textless.diagnostics);
    const ocrInfo: PageInfo = { ...info, text_source: textless.source };
    if (textless.confidence !== undefined) ocrInfo.ocr_confidence = textless.confidence;
    return {
      info: ocrInfo,
      blocks: textless.blocks,
      ocr: textless.source === 'ocr',
      ...(textless.confidence !== undefined ? { confidence: textless.confidence } : {}),
    };
  } finally {
    page.cleanup();
  }
}

async function readPages(
  doc: PDFDocumentProxy,
  bytes: Uint8Array,
  ctx: ParseContext,
  options: ParseOptions,
  artifact: 'original' | 'pdf',
  diagnostics: Diagnostic[],
): Promise<PageResult[]> {
  const labels = await doc.getPageLabels().catch(() => null);
  const pages: PageResult[] = [];
  for (let i = 0; i < doc.numPages; i++) {
    if (ctx.signal?.aborted) throw createError('PP_JOB_CANCELLED', `Parsing ${ctx.fileName} was cancelled.`);
    try {
      pages.push(await readPage(doc, bytes, i, ctx, options, labels, artifact, diagnostics));
    } catch (err) {
      if (err && typeof err === 'object' && 'code' in err) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      diagnostics.push({
        rule_id: 'pdf/page-unreadable',
        reason: `Page ${i + 1} could not be read: ${reason}`,
        severity: 'error',
        page_index: i,
      });
    }
  }
  return pages;
}

function toElements(pages: PageResult[]): Element[] {
  const levels = headingLevels(pages.flatMap((p) => p.blocks));
  const elements: Element[] = [];
  const trail: Array<[number, string]> = [];
  for (const page of pages) {
    for (const block of page.blocks) {
      const level = page.ocr ? undefined : levels.get(block);
      if (level !== undefined) while (trail.length > 0 && (trail.at(-1) as [number, string])[0] >= level) trail.pop();
      const { info } = page;
      const anchor: PageAnchor = {
        kind: 'page',
        artifact: info.artifact,
        page_index: info.page_index,
        page_width: info.width,
        page_height: info.height,
        unit: 'pt',
        rotation: info.rotation,
        boxes: block.boxes,
      };
      if (info.page_label) anchor.page_label = info.page_label;
      const element: Element = {
        element_id: elementId(elements.length),
        type: page.ocr ? 'ocr_line' : level !== undefined ? 'heading' : 'paragraph',
        section_path: trail.map(([, t]) => t),
        text: block.text,
        anchor,
        spans: block.spans,
      };
      if (level !== undefined) element.level = level;
      if (page.confidence !== undefined) element.confidence = page.confidence;
      elements.push(element);
      if (level !== undefined) trail.push([level, block.text]);
    }
  }
  return elements;
}

/** PDF → page-anchored elements; `artifact` is 'pdf' when the PDF was derived from another format. */
export async function parsePdfAs(
  bytes: Uint8Array,
  ctx: ParseContext,
  options: ParseOptions,
  artifact: 'original' | 'pdf',
): Promise<ParseOutput> {
  const doc = await openPdf(bytes, ctx.fileName);
  const diagnostics: Diagnostic[] = [];
  try {
    const pages = await readPages(doc, bytes, ctx, options, artifact, diagnostics);
    if (pages.length > 0 && pages.every((p) => p.blocks.length === 0)) {
      const allTextless = pages.every((p) => p.info.text_source === 'none');
      throw createError(
        allTextless ? 'PP_PARSE_NO_TEXT' : 'PP_PARSE_CORRUPT',
        allTextless
          ? `${ctx.fileName} has no text layer on any page (a scan or images); it needs OCR to be searchable.`
          : `${ctx.fileName}: no page of the PDF could be read.`,
      );
    }
    const elements = toElements(pages);
    return {
      elements,
      sourceMap: {
        schemaVersion: SOURCE_MAP_SCHEMA_VERSION,
        format: ctx.format,
        anchor_kind: 'page',
        pages: pages.map((p) => p.info),
        elements,
      },
      diagnostics,
      artifacts: [],
    };
  } finally {
    await doc.destroy();
  }
}

export async function parsePdf(bytes: Uint8Array, ctx: ParseContext, options: ParseOptions): Promise<ParseOutput> {
  return parsePdfAs(bytes, ctx, options, 'original');
}

export const pdfParser: ParserEntry = { name: 'pdf', version: '1', parse: parsePdf };
