import { z } from 'zod';
import type { Diagnostic, Element, Format } from './domain.js';
import { elementSchema, formatSchema, pageInfoSchema } from './domain.js';

/**
 * The persisted source map of a version (artifact `sourcemap.json`). Versioned: every change of
 * shape bumps SOURCE_MAP_SCHEMA_VERSION and adds a numbered migration below, with a test.
 */
export const SOURCE_MAP_SCHEMA_VERSION = 2;

export const sourceMapSchema = z.object({
  schemaVersion: z.literal(SOURCE_MAP_SCHEMA_VERSION),
  format: formatSchema,
  anchor_kind: z.enum(['page', 'text', 'record']),
  pages: z.array(pageInfoSchema),
  /** Text formats: sha256 of the decoded text (artifact `text`). */
  text_sha256: z.string().length(64).optional(),
  /** Record formats: sha256 of `records.jsonl`. */
  records_sha256: z.string().length(64).optional(),
  elements: z.array(elementSchema),
});
export type SourceMap = z.infer<typeof sourceMapSchema>;

type Migration = (input: Readonly<Record<string, unknown>>) => Record<string, unknown>;

/** migrations[n] upgrades a map of schemaVersion n to n + 1; it must not mutate its input. */
export const sourceMapMigrations: Readonly<Record<number, Migration>> = {
  // 2: HTML and JSON elements may carry `raw_map`. A version-1 map has none; its elements read as
  // they are, and a sentence cited in one keeps the element's whole raw range.
  1: (input) => ({ ...input }),
};

/** Parses a stored source map of any known schema version, migrating it to the current one. */
export function readSourceMap(input: unknown): SourceMap {
  let value = z.object({ schemaVersion: z.number().int().positive() }).passthrough().parse(input) as Record<string, unknown>;
  let v = value.schemaVersion as number;
  if (v > SOURCE_MAP_SCHEMA_VERSION)
    throw new Error(`source map schemaVersion ${v} is newer than this build (${SOURCE_MAP_SCHEMA_VERSION})`);
  while (v < SOURCE_MAP_SCHEMA_VERSION) {
    const migrate = sourceMapMigrations[v];
    if (!migrate) throw new Error(`no migration from source map schemaVersion ${v}`);
    value = { ...migrate(value), schemaVersion: v + 1 };
    v++;
  }
  return sourceMapSchema.parse(value);
}

/** One line of the `records.jsonl` artifact: a structured record the reader shows as a table row or paragraph. */
export const recordEntrySchema = z.object({
  record_id: z.string(),
  kind: z.enum(['heading', 'paragraph', 'list_item', 'table', 'row', 'header']),
  text: z.string(),
  level: z.number().int().min(1).max(6).optional(),
  sheet: z.string().optional(),
  row: z.number().int().nonnegative().optional(),
  cells: z.array(z.object({ ref: z.string(), value: z.string(), header: z.string().optional() })).optional(),
  paragraph_index: z.number().int().nonnegative().optional(),
  table_index: z.number().int().nonnegative().optional(),
  physical_lines: z.tuple([z.number().int().positive(), z.number().int().positive()]).optional(),
});
export type RecordEntry = z.infer<typeof recordEntrySchema>;

/** A derived artifact a parser produced; the ingestion pipeline stores it and records its hash. */
export interface DerivedArtifact {
  kind: 'pdf' | 'records.jsonl' | 'text' | 'page-image';
  name: string;
  mime: string;
  bytes: Uint8Array;
}

/** What every parser returns (../STYLE.md: parseX(bytes, ctx, options) → { elements, sourceMap, diagnostics }). */
export interface ParseOutput {
  elements: Element[];
  sourceMap: SourceMap;
  diagnostics: Diagnostic[];
  artifacts: DerivedArtifact[];
  /** What the file declares about itself (PDF Info, Office core properties), when it does. */
  metadata?: { title?: string };
}

/** Capabilities a parser may be handed; it reads nothing from the environment itself. */
export interface ParseContext {
  fileName: string;
  format: Format;
  signal?: AbortSignal;
  /** Optional OCR engine for pages/images without text. */
  ocr?: OcrEngine;
  /** Optional office converter (LibreOffice) for legacy/slide formats. */
  convert?: OfficeConverter;
  /** Optional PDF page renderer, for OCR of pages without a text layer. */
  rasterize?: PageRasterizer;
  /** Pages a parser may read (render and OCR) at once: the cores this parse may use. Default 1. */
  pageConcurrency?: number;
}

export interface OcrWord {
  text: string;
  /** [x0,y0,x1,y1] in pixels of the image given. */
  box: [number, number, number, number];
  confidence: number;
}
export interface OcrLine {
  text: string;
  box: [number, number, number, number];
  confidence: number;
  words: OcrWord[];
}
/** The writing system an OCR engine sees on a page ('Latin', 'Han', 'Japanese', …) and how sure it is. */
export interface OcrScript {
  script: string;
  confidence: number;
  /** Clockwise turn that makes the page upright, when the engine is sure of it (0 otherwise). */
  rotate: 0 | 90 | 180 | 270;
}
/** What is known about an image beyond its pixels: its resolution, when the file states it (TIFF tags). */
export interface OcrImageHints {
  dpi?: number;
  /** Read the image turned this far clockwise (the page's own orientation); boxes stay in the image as given. */
  rotate?: 0 | 90 | 180 | 270;
}
/** A reader of a page's grey pixels (8-bit, row by row) into lines and words, boxes in its pixels. */
export interface OcrPageReader {
  readonly id: string;
  read(
    page: { width: number; height: number; grey: Uint8Array },
    signal?: AbortSignal,
  ): Promise<{ width: number; height: number; lines: OcrLine[] }>;
}
export interface OcrEngine {
  readonly id: string;
  /** The reader for pages of Simplified Chinese, where one better than the engine's own model is configured. */
  readonly simplifiedChinese?: OcrPageReader | undefined;
  recognize(
    image: Uint8Array,
    langs: string[],
    signal?: AbortSignal,
    hints?: OcrImageHints,
  ): Promise<{ width: number; height: number; lines: OcrLine[] }>;
  /** The page's script before any recognition (tesseract: orientation and script detection); undefined when unsure. */
  detectScript?(image: Uint8Array, signal?: AbortSignal, hints?: OcrImageHints): Promise<OcrScript | undefined>;
}
export interface PageRasterizer {
  readonly id: string;
  /** Renders one page (0-based) as displayed (its /Rotate applied) at `dpi`, as PNG, JPEG or binary PGM/PPM. */
  rasterize(pdf: Uint8Array, pageIndex: number, dpi: number, signal?: AbortSignal): Promise<Uint8Array>;
}
export interface OfficeConverter {
  readonly id: string;
  convert(bytes: Uint8Array, fromExt: string, toExt: 'pdf' | 'docx' | 'xlsx' | 'pptx', signal?: AbortSignal): Promise<Uint8Array>;
}
