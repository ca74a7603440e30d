import { z } from 'zod';
import { anchorSchema, boxSchema, precisionSchema, rotationSchema } from './anchors.js';
import { documentIdentitySchema, identityCorrectionSchema } from './document-identity.js';
import { rawMapSchema } from './raw-map.js';

export const collectionSchema = z.object({
  collection_id: z.string(),
  name: z.string().min(1),
  created_at: z.string(),
});
export type Collection = z.infer<typeof collectionSchema>;

export const documentSchema = z.object({
  document_id: z.string(),
  collection_id: z.string(),
  /** The original file name; "the same file" across re-uploads is same collection + name. */
  name: z.string().min(1),
  created_at: z.string(),
  /** An editor's correction of what the document is about; every version inherits it. */
  identity_correction: identityCorrectionSchema.nullable().optional(),
});
export type PinDocument = z.infer<typeof documentSchema>;

export const formatSchema = z.enum([
  'pdf',
  'docx',
  'doc',
  'pptx',
  'ppt',
  'xlsx',
  'xls',
  'csv',
  'txt',
  'md',
  'json',
  'html',
  'png',
  'jpeg',
  'tiff',
]);
export type Format = z.infer<typeof formatSchema>;

const versionStateSchema = z.enum(['queued', 'processing', 'ready', 'failed', 'cancelled']);
export type VersionState = z.infer<typeof versionStateSchema>;

export const recipeSchema = z.object({
  /** e.g. "pdf@1" — parser name and its version. */
  parser: z.string(),
  chunker: z.string(),
  analyzer: z.string(),
  options: z.record(z.string(), z.unknown()),
});
export type Recipe = z.infer<typeof recipeSchema>;

export const diagnosticSchema = z.object({
  rule_id: z.string(),
  reason: z.string(),
  severity: z.enum(['info', 'warning', 'error']),
  page_index: z.number().int().nonnegative().optional(),
  element_id: z.string().optional(),
});
export type Diagnostic = z.infer<typeof diagnosticSchema>;

export const versionSchema = z.object({
  version_id: z.string(),
  document_id: z.string(),
  collection_id: z.string(),
  /** 1, 2, 3… within the document. */
  number: z.number().int().positive(),
  source_sha256: z.string().length(64),
  original_name: z.string(),
  declared_mime: z.string().nullable(),
  sniffed_mime: z.string().nullable(),
  format: formatSchema.nullable(),
  size: z.number().int().nonnegative(),
  recipe: recipeSchema,
  state: versionStateSchema,
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  diagnostics: z.array(diagnosticSchema),
  stats: z.object({
    pages: z.number().int().nonnegative().optional(),
    elements: z.number().int().nonnegative().optional(),
    chunks: z.number().int().nonnegative().optional(),
    parse_ms: z.number().nonnegative().optional(),
    /** Milliseconds per ingestion stage after parsing: artifacts, chunk, metadata, index. */
    stages_ms: z.record(z.string(), z.number().nonnegative()).optional(),
  }),
  /** What the version is about and when, read at ingest (the document's correction laid over it). */
  identity: documentIdentitySchema.optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Version = z.infer<typeof versionSchema>;

export const artifactKindSchema = z.enum(['original', 'pdf', 'records.jsonl', 'text', 'sourcemap.json', 'page-image']);
export type ArtifactKind = z.infer<typeof artifactKindSchema>;

export const artifactSchema = z.object({
  version_id: z.string(),
  kind: artifactKindSchema,
  /** Distinguishes several artifacts of one kind (page images: the page index). */
  name: z.string(),
  sha256: z.string().length(64),
  size: z.number().int().nonnegative(),
  mime: z.string(),
  blob_key: z.string(),
});
export type Artifact = z.infer<typeof artifactSchema>;

const elementTypeSchema = z.enum([
  'title',
  'heading',
  'paragraph',
  'list_item',
  'table',
  'table_cell',
  'figure',
  'record',
  'ocr_line',
  'code',
  'quote',
]);
export type ElementType = z.infer<typeof elementTypeSchema>;

/** A run of an element's text with its box on the page: lets a sub-range of the element resolve to boxes. */
const textSpanSchema = z.object({
  /** Half-open codepoint range into element.text. */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  box: boxSchema,
});
export type TextSpan = z.infer<typeof textSpanSchema>;

/** One cell of a table row element: where its text sits in element.text, and where it sits in the table. */
const tableCellSchema = z.object({
  /** A1 reference in the sheet (sheets, CSV: row 1 is the file's first line), else the cell's grid position in its table. */
  ref: z.string(),
  /** 0-based grid column (merged cells counted by their span). */
  col: z.number().int().nonnegative(),
  /** Half-open codepoint range into element.text. */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  /** The column's header name (multi-row headers joined with " / "). */
  header: z.string().optional(),
  /** HTML: codepoint range of the <td>/<th> in the raw source. */
  raw: z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }).optional(),
});
export type TableCell = z.infer<typeof tableCellSchema>;

/** Rows of a table: which table, which row, and whether the row is a header row. */
const tableRowSchema = z.object({
  /** 0-based index of the table in the document (sheets: the sheet's block). */
  index: z.number().int().nonnegative(),
  /** 0-based row within the table, header rows included. */
  row: z.number().int().nonnegative(),
  header: z.boolean(),
  /** Caption or nearest heading of the table, when it has one. */
  title: z.string().optional(),
  /** Grid columns spanned from rows above (rowspan / vertical merges): header and value, for retrieval text. */
  carried: z
    .array(z.object({ col: z.number().int().nonnegative(), header: z.string().optional(), value: z.string() }))
    .optional(),
});
export type TableRow = z.infer<typeof tableRowSchema>;

export const elementSchema = z.object({
  /** Stable within the version: e.g. "e000123". */
  element_id: z.string(),
  type: elementTypeSchema,
  /** Heading level 1..6 for headings. */
  level: z.number().int().min(1).max(6).optional(),
  /** Heading trail, outermost first. */
  section_path: z.array(z.string()),
  text: z.string(),
  anchor: anchorSchema,
  /** HTML, JSON: where each run of the text sits in the raw source, so a sentence's `raw` is its own span (raw-map.ts). */
  raw_map: rawMapSchema.optional(),
  /** Page anchors: the boxes of runs of the text, so a sentence inside the element resolves to its own boxes. */
  spans: z.array(textSpanSchema).optional(),
  /** Records that are one cell per column: the column header names, in order. */
  columns: z.array(z.string()).optional(),
  /** Table rows: the row's cells, each with its range in `text` (and raw range for HTML). */
  cells: z.array(tableCellSchema).optional(),
  /** Table rows: the table and row this element is. */
  table: tableRowSchema.optional(),
  /** OCR'd elements: mean word confidence 0..100. */
  confidence: z.number().min(0).max(100).optional(),
});
export type Element = z.infer<typeof elementSchema>;

export const pageInfoSchema = z.object({
  page_index: z.number().int().nonnegative(),
  page_label: z.string().optional(),
  width: z.number().positive(),
  height: z.number().positive(),
  unit: z.enum(['pt', 'px']),
  rotation: rotationSchema,
  artifact: z.enum(['original', 'pdf']),
  /** How the page's text was obtained. */
  text_source: z.enum(['text-layer', 'ocr', 'none']).optional(),
  ocr_confidence: z.number().min(0).max(100).optional(),
});
export type PageInfo = z.infer<typeof pageInfoSchema>;

/** Element refs of a chunk with the sub-range of each element's text it covers (codepoints). */
const chunkElementRefSchema = z.object({
  element_id: z.string(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});
export type ChunkElementRef = z.infer<typeof chunkElementRefSchema>;

export const chunkSchema = z.object({
  chunk_id: z.string(),
  /** Identifies the chunking recipe, e.g. "c1:500/50". */
  chunk_set_id: z.string(),
  version_id: z.string(),
  document_id: z.string(),
  collection_id: z.string(),
  /** Order of the chunk within the version. */
  ordinal: z.number().int().nonnegative(),
  elements: z.array(chunkElementRefSchema).min(1),
  text: z.string(),
  retrieval_text: z.string(),
  page_index: z.number().int().nonnegative().optional(),
  sheet: z.string().optional(),
  section_path: z.array(z.string()),
});
export type Chunk = z.infer<typeof chunkSchema>;

export const citationSchema = z.object({
  /** 1-based number as it appears in the answer: [1], [2]… */
  n: z.number().int().positive(),
  document_id: z.string(),
  version_id: z.string(),
  chunk_id: z.string(),
  element_id: z.string(),
  file: z.string(),
  page_index: z.number().int().nonnegative().optional(),
  page_label: z.string().optional(),
  anchor: anchorSchema,
  quote: z.string(),
  precision: precisionSchema,
  /** Citation verification: does the cited source support the sentence? */
  supported: z.boolean().optional(),
  /**
   * The answer inside the quote, when the question asks for a date, number, name or place and the
   * quote holds one of that kind: its text and codepoint range in `quote`.
   */
  mark: z.object({ text: z.string(), start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }).optional(),
});
export type Citation = z.infer<typeof citationSchema>;

const jobStateSchema = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
export type JobState = z.infer<typeof jobStateSchema>;

const jobStageSchema = z.enum(['queued', 'parsing', 'chunking', 'indexing', 'embedding', 'done']);
export type JobStage = z.infer<typeof jobStageSchema>;

export const jobSchema = z.object({
  /** Deterministic: derived from version id + recipe, so enqueueing twice is a no-op. */
  job_id: z.string(),
  version_id: z.string(),
  document_id: z.string(),
  collection_id: z.string(),
  file: z.string(),
  state: jobStateSchema,
  stage: jobStageSchema,
  progress: z.number().min(0).max(100),
  attempts: z.number().int().nonnegative(),
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type Job = z.infer<typeof jobSchema>;
