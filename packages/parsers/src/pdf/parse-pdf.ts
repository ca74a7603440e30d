import type { Diagnostic, Element, PageInfo, ParseContext, ParseOutput } from '@pinpoint/core';
import { createError, elementId } from '@pinpoint/core';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { piecesPerPage } from '../ocr/pieces.js';
import { pageAnchorOf, pagedSourceMap } from '../page-anchor.js';
import type { ParseOptions } from '../registry.js';
import type { PdfBlock } from './blocks.js';
import { learnDocument } from './document-model.js';
import { headingLevels } from './headings.js';
import type { Line } from './lines.js';
import { closePdf, openPdf } from './load.js';
import { takePageContent } from './page-content.js';
import { linesToBlocks, pageGeometry, pageRuns, runsToLines } from './page-text.js';
import { tableContinuations } from './tables/continuation.js';
import { findOcrTables, findPageTables } from './tables/page-tables.js';
import type { PdfTable } from './tables/pdf-table.js';
import type { TablePlace } from './tables/table-elements.js';
import { pdfHeaderNames, tableElements } from './tables/table-elements.js';
import { recognizeTextlessPage } from './textless-page.js';

/** One page as read from the PDF; plain data, so a range of pages read in a parser child crosses to its parent. */
interface PageResult {
  info: PageInfo;
  /** Text-layer lines per writing direction; turned into blocks once the document's line pitch is known. */
  lines: Line[][];
  blocks: PdfBlock[];
  /** Tables found on the page; their text is not in `lines`. */
  tables: PdfTable[];
  ocr: boolean;
}

/** Everything reading one page needs; diagnostics collect here. */
interface PdfRead {
  doc: PDFDocumentProxy;
  bytes: Uint8Array;
  ctx: ParseContext;
  options: ParseOptions;
  labels: string[] | null;
  artifact: 'original' | 'pdf';
  diagnostics: Diagnostic[];
  /** Pieces a page without a text layer may be read in at once (../ocr/pieces.ts): the cores its range leaves. */
  ocrPieces?: number;
}

/** Glyphs without a Unicode mapping come out as private-use, replacement or control characters. */
function suspectTextLayer(groups: Line[][], pageIndex: number): Diagnostic | undefined {
  let total = 0;
  let bad = 0;
  for (const line of groups.flat()) {
    total += line.text.length;
    bad += line.text.match(/[\ue000-\uf8ff\ufffd\u0000-\u0008\u000e-\u001f]/g)?.length ?? 0;
  }
  if (total < 20 || bad < 0.2 * total) return undefined;
  const reason = `${Math.round((100 * bad) / total)} % of this page's text has no Unicode mapping (a font without one); OCR would read it better.`;
  return { rule_id: 'pdf/unmapped-glyphs', reason, severity: 'warning', page_index: pageIndex };
}

async function readPage(read: PdfRead, index: number): Promise<PageResult> {
  const page = await read.doc.getPage(index + 1);
  try {
    const g = pageGeometry(page);
    const info: PageInfo = {
      page_index: index,
      width: g.width,
      height: g.height,
      unit: 'pt',
      rotation: g.rotation,
      artifact: read.artifact,
    };
    const label = read.labels?.[index];
    if (label) info.page_label = label;
    const runs = await pageRuns(page, g);
    const content = takePageContent(read.doc, index);
    if (runs.some((group) => group.length > 0)) {
      const found = read.options.tables === false ? undefined : findPageTables({ content, view: page.view, index }, runs);
      if (found?.skipped)
        read.diagnostics.push({
          rule_id: 'pdf/tables-skipped',
          reason: `Page ${index + 1} was not read for tables: ${found.skipped}.`,
          severity: 'info',
          page_index: index,
        });
      const lines = runsToLines(runs, found?.consumed ?? new Set());
      const suspect = suspectTextLayer(lines, index);
      if (suspect) read.diagnostics.push(suspect);
      return { info: { ...info, text_source: 'text-layer' }, lines, blocks: [], tables: found?.tables ?? [], ocr: false };
    }
    const textless = await recognizeTextlessPage(
      read.bytes,
      { page_index: index, width: g.width, height: g.height, rotation: g.rotation },
      read.ctx,
      read.options,
      read.ocrPieces,
    );
    read.diagnostics.push(...textless.diagnostics);
    info.text_source = textless.source;
    if (textless.confidence !== undefined) info.ocr_confidence = textless.confidence;
    const ocr = textless.source === 'ocr';
    const found =
      ocr && read.options.tables !== false ? findOcrTables(textless.blocks, index) : { tables: [], kept: textless.blocks };
    return { info, lines: [], blocks: found.kept, tables: found.tables, ocr };
  } finally {
    page.cleanup();
  }
}

/**
 * Pages [first, end) in page order, `concurrency` of them read at once (a page without a text layer waits
 * on its renderer and OCR, which run as their own processes); diagnostics kept in page order.
 */
async function readPageRange(read: PdfRead, first: number, end: number, concurrency: number): Promise<PageResult[]> {
  const slots: Array<{ page?: PageResult; diagnostics: Diagnostic[] }> = [];
  let next = first;
  const readers = Math.max(1, Math.min(concurrency, end - first));
  // a range of fewer pages than cores (a one-page scan) reads each page in pieces at once
  const ocrPieces = piecesPerPage(concurrency, end - first);
  const reader = async (): Promise<void> => {
    while (next < end) {
      const i = next++;
      const slot: { page?: PageResult; diagnostics: Diagnostic[] } = { diagnostics: [] };
      slots[i - first] = slot;
      if (read.ctx.signal?.aborted) throw createError('PP_JOB_CANCELLED', `Parsing ${read.ctx.fileName} was cancelled.`);
      try {
        slot.page = await readPage({ ...read, diagnostics: slot.diagnostics, ocrPieces }, i);
      } catch (err) {
        if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string' && err.code.startsWith('PP_'))
          throw err;
        const reason = err instanceof Error ? err.message : String(err);
        slot.diagnostics.push({
          rule_id: 'pdf/page-unreadable',
          reason: `Page ${i + 1} could not be read: ${reason}`,
          severity: 'error',
          page_index: i,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: readers }, reader));
  for (const slot of slots) read.diagnostics.push(...slot.diagnostics);
  return slots.flatMap((slot) => (slot.page ? [slot.page] : []));
}

/** A block that opens with a bullet or a list number reads as a list item. */
const bullet = /^(?:[•◦▪‣●○■□∙·\-–]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s/u;

/** Where a table goes among the page's blocks: before the first block that starts below its top. */
function tableSlot(blocks: PdfBlock[], table: PdfTable): number {
  const at = blocks.findIndex((b) => !b.marginal && (b.boxes[0]?.[1] ?? 0) > table.box[1]);
  return at < 0 ? blocks.length : at;
}

/**
 * A table that goes on from the page before: that table's index, its rows numbered on from there, and
 * (when this page repeats no header) its header names and title.
 */
function continuedPlace(table: PdfTable, prev: PdfTable | undefined, places: Map<PdfTable, TablePlace>) {
  const from = prev && places.get(prev);
  if (!prev || !from) return undefined;
  const title = from.title ?? prev.title;
  const place: TablePlace = { index: from.index, firstRow: from.firstRow + prev.rowCount, ...(title ? { title } : {}) };
  return table.headerRows > 0 ? place : { ...place, names: from.names ?? pdfHeaderNames(prev) };
}

function toElements(pages: PageResult[]): Element[] {
  const levels = headingLevels(pages.flatMap((p) => (p.ocr ? [] : p.blocks)));
  const elements: Element[] = [];
  const trail: Array<[number, string]> = [];
  const continues = tableContinuations(pages);
  const places = new Map<PdfTable, TablePlace>();
  let tableIndex = 0;
  const pushTables = (page: PageResult, tables: PdfTable[]): void => {
    for (const table of tables) {
      const place = continuedPlace(table, continues.get(table), places) ?? { index: tableIndex++, firstRow: 0 };
      places.set(table, place);
      for (const row of tableElements(
        table,
        place,
        page.info,
        trail.map(([, t]) => t),
      ))
        elements.push({ ...row, element_id: elementId(elements.length) });
    }
  };
  for (const page of pages) {
    const slots = page.tables.map((t) => tableSlot(page.blocks, t));
    page.blocks.forEach((block, b) => {
      pushTables(
        page,
        page.tables.filter((_, t) => slots[t] === b),
      );
      const level = levels.get(block);
      if (level !== undefined) while (trail.length > 0 && (trail.at(-1) as [number, string])[0] >= level) trail.pop();
      const type = page.ocr ? 'ocr_line' : level !== undefined ? 'heading' : bullet.test(block.text) ? 'list_item' : 'paragraph';
      const element: Element = {
        element_id: elementId(elements.length),
        type,
        section_path: trail.map(([, t]) => t),
        text: block.text,
        anchor: pageAnchorOf(page.info, block.boxes),
        spans: block.spans,
      };
      if (level !== undefined) element.level = level;
      if (block.confidence !== undefined) element.confidence = block.confidence;
      elements.push(element);
      if (level !== undefined) trail.push([level, block.text]);
    });
    pushTables(
      page,
      page.tables.filter((_, t) => slots[t] === page.blocks.length),
    );
  }
  return elements;
}

function noTextError(pages: PageResult[], ctx: AssemblyContext): Error {
  if (!pages.every((p) => p.info.text_source === 'none')) {
    return createError('PP_PARSE_CORRUPT', `${ctx.fileName}: no page of the PDF could be read; re-export the PDF.`);
  }
  const why = ctx.ocr
    ? 'no page has a text layer and OCR found no text on them (blank pages or images without words)'
    : 'no page has a text layer (a scan or images); it needs OCR to be searchable';
  return createError('PP_PARSE_NO_TEXT', `${ctx.fileName}: ${why}.`);
}

/** What assembling the pages needs to know of the parse: names for messages, and whether OCR was available. */
export interface AssemblyContext {
  fileName: string;
  format: ParseContext['format'];
  ocr: boolean;
}

/** Pages of a PDF read so far, in page order, with the diagnostics their reading raised. */
export interface PdfPages {
  pages: PageResult[];
  diagnostics: Diagnostic[];
  /** The Info dictionary's title: read with the range that starts at the first page. */
  title?: string;
}

/**
 * An open PDF whose pages are read range by range: one parse reads them all, or parser children
 * each read a range of the same document and their parent joins the ranges with assemblePdf.
 */
export class PdfPageReader {
  private constructor(
    private readonly doc: PDFDocumentProxy,
    private readonly base: Omit<PdfRead, 'diagnostics'>,
  ) {}

  static async open(bytes: Uint8Array, ctx: ParseContext, options: ParseOptions, artifact: 'original' | 'pdf') {
    const doc = await openPdf(bytes, ctx.fileName);
    try {
      const labels = await doc.getPageLabels().catch(() => null);
      return new PdfPageReader(doc, { doc, bytes, ctx, options, labels, artifact });
    } catch (err) {
      await closePdf(doc);
      throw err;
    }
  }

  get numPages(): number {
    return this.doc.numPages;
  }

  /** The title the PDF's Info dictionary declares, or undefined. */
  async #title(): Promise<string | undefined> {
    const meta = await this.doc.getMetadata().catch(() => null);
    const info = meta?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === 'string' ? info.Title.replace(/\s+/g, ' ').trim() : '';
    return title.length > 0 ? title : undefined;
  }

  /** Pages [first, end) (clamped to the document). */
  async read(first: number, end: number): Promise<PdfPages> {
    const diagnostics: Diagnostic[] = [];
    const concurrency = Math.max(1, Math.floor(this.base.ctx.pageConcurrency ?? 1));
    const pages = await readPageRange(
      { ...this.base, diagnostics },
      Math.max(0, first),
      Math.min(end, this.numPages),
      concurrency,
    );
    const title = first <= 0 ? await this.#title() : undefined;
    return { pages, diagnostics, ...(title ? { title } : {}) };
  }

  close(): Promise<void> {
    return closePdf(this.doc);
  }
}

/**
 * Pages read (all of them, in page order) → the parse output. What the whole document teaches (line
 * pitch, paragraph spacing, heading sizes) is learned here, so a document read in ranges comes out as
 * if it had been read in one piece.
 */
export function assemblePdf(read: PdfPages, ctx: AssemblyContext): ParseOutput {
  const { pages, diagnostics } = read;
  const model = learnDocument(pages.flatMap((p) => p.lines));
  for (const page of pages) if (page.lines.length > 0) page.blocks = linesToBlocks(page.lines, model);
  if (pages.every((p) => p.blocks.length === 0 && p.tables.length === 0)) throw noTextError(pages, ctx);
  const elements = toElements(pages);
  return {
    elements,
    sourceMap: pagedSourceMap(
      ctx.format,
      pages.map((p) => p.info),
      elements,
    ),
    diagnostics,
    artifacts: [],
    ...(read.title ? { metadata: { title: read.title } } : {}),
  };
}

/** PDF → page-anchored elements; `artifact` is 'pdf' when the PDF was derived from another format. */
export async function parsePdfAs(
  bytes: Uint8Array,
  ctx: ParseContext,
  options: ParseOptions,
  artifact: 'original' | 'pdf',
): Promise<ParseOutput> {
  const reader = await PdfPageReader.open(bytes, ctx, options, artifact);
  try {
    return assemblePdf(await reader.read(0, reader.numPages), { fileName: ctx.fileName, format: ctx.format, ocr: !!ctx.ocr });
  } finally {
    await reader.close();
  }
}

export async function parsePdf(bytes: Uint8Array, ctx: ParseContext, options: ParseOptions): Promise<ParseOutput> {
  return parsePdfAs(bytes, ctx, options, 'original');
}

/** The tables found on every page of a PDF (structure with row and column spans, as `pinpoint tables` prints them). */
export async function readPdfTables(bytes: Uint8Array, ctx: ParseContext, options: ParseOptions = {}): Promise<PdfTable[]> {
  const reader = await PdfPageReader.open(bytes, ctx, options, 'original');
  try {
    const { pages } = await reader.read(0, reader.numPages);
    return pages.flatMap((p) => p.tables);
  } finally {
    await reader.close();
  }
}
