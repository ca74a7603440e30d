import { z } from 'zod';

/** [x0, y0, x1, y1], top-left origin, in the anchor's unit, unrotated page space. */
export const boxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);
export type Box = z.infer<typeof boxSchema>;

export const rotationSchema = z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]);
export type Rotation = z.infer<typeof rotationSchema>;

export const pageAnchorSchema = z.object({
  kind: z.literal('page'),
  artifact: z.enum(['original', 'pdf']),
  page_index: z.number().int().nonnegative(),
  page_label: z.string().optional(),
  page_width: z.number().positive(),
  page_height: z.number().positive(),
  unit: z.enum(['pt', 'px']),
  rotation: rotationSchema,
  boxes: z.array(boxSchema),
});
export type PageAnchor = z.infer<typeof pageAnchorSchema>;

export const textAnchorSchema = z.object({
  kind: z.literal('text'),
  artifact: z.literal('original'),
  unit: z.literal('codepoint'),
  /** Half-open codepoint range into the decoded text. */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  /** sha256 (hex) of the decoded text, UTF-8 encoded, that the offsets index into. */
  text_sha256: z.string().length(64),
  /** Offsets into the raw source (codepoints of the decoded source) where they differ (HTML, JSON). */
  raw: z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }).optional(),
  json_pointer: z.string().optional(),
});
export type TextAnchor = z.infer<typeof textAnchorSchema>;

export const recordAnchorSchema = z.object({
  kind: z.literal('record'),
  artifact: z.literal('records.jsonl'),
  record_id: z.string(),
  /** sha256 (hex) of the records.jsonl artifact. */
  records_sha256: z.string().length(64),
  sheet: z.string().optional(),
  /** 1-based spreadsheet row, or 0-based CSV record index. */
  row: z.number().int().nonnegative().optional(),
  cell_range: z.string().optional(),
  paragraph_index: z.number().int().nonnegative().optional(),
  table_index: z.number().int().nonnegative().optional(),
  /** CSV: 1-based first and last physical line of the record. */
  physical_lines: z.tuple([z.number().int().positive(), z.number().int().positive()]).optional(),
});
export type RecordAnchor = z.infer<typeof recordAnchorSchema>;

export const anchorSchema = z.discriminatedUnion('kind', [pageAnchorSchema, textAnchorSchema, recordAnchorSchema]);
export type Anchor = z.infer<typeof anchorSchema>;
export type AnchorKind = Anchor['kind'];

export const precisionSchema = z.enum(['exact', 'element', 'unresolved']);
export type Precision = z.infer<typeof precisionSchema>;
