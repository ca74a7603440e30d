import {
  anchorSchema,
  artifactSchema,
  boxSchema,
  citationSchema,
  collectionSchema,
  documentSchema,
  elementSchema,
  jobSchema,
  precisionSchema,
  recordEntrySchema,
  rotationSchema,
  versionSchema,
} from '@pinpoint/core';
import { z } from 'zod';

/** Response and request shapes of the HTTP API (docs/api.md); the OpenAPI document is generated from them. */
export const errorResponse = z.object({
  error: z.object({ code: z.string(), message: z.string(), request_id: z.string().optional() }),
});

const id = z.string().min(1).max(200);
export const collectionParams = z.object({ collectionId: id });
export const documentParams = z.object({ documentId: id });
export const versionParams = z.object({ versionId: id });
export const jobParams = z.object({ jobId: id });
/** Raw bytes (artifacts, downloads): not serialized. */
export const bytesResponse = z.unknown().describe('The raw bytes.');

export const collectionsResponse = z.object({
  collections: z.array(collectionSchema.extend({ role: z.enum(['viewer', 'editor', 'admin']).optional() })),
});

export const uploadResponse = z.object({
  results: z.array(
    z.object({
      file: z.string(),
      document: documentSchema,
      version: versionSchema,
      created: z.boolean(),
      job: jobSchema.nullable(),
    }),
  ),
});

export const documentSummary = z.object({
  document: documentSchema,
  versions: z.array(versionSchema),
  latest_ready_version_id: z.string().nullable(),
});

export const versionDetail = z.object({
  version: versionSchema,
  artifacts: z.array(artifactSchema),
  newer_version_id: z.string().nullable(),
  latest_ready_version_id: z.string().nullable(),
});

const filtersSchema = z
  .object({
    document_ids: z.array(z.string()).max(1000).optional(),
    version_ids: z.array(z.string()).max(1000).optional(),
    page_indexes: z.array(z.number().int().nonnegative()).max(10000).optional(),
  })
  .optional();

const stageNumbers = z.object({
  lexical: z.number().optional(),
  dense: z.number().optional(),
  fused: z.number().optional(),
  rerank: z.number().optional(),
});

const retrievedSchema = z.object({
  rank: z.number().int().positive(),
  chunk_id: z.string(),
  document_id: z.string(),
  version_id: z.string(),
  file: z.string(),
  page_index: z.number().int().nonnegative().optional(),
  page_label: z.string().optional(),
  section_path: z.array(z.string()),
  text: z.string(),
  scores: stageNumbers,
  ranks: stageNumbers,
});

const timingsSchema = z.record(z.string(), z.number());

export const searchBody = z.object({
  query: z.string().min(1).max(2000),
  collection_id: z.string().optional(),
  filters: filtersSchema,
  k: z.number().int().min(1).max(100).optional(),
});

export const searchResponse = z.object({ query: z.string(), hits: z.array(retrievedSchema), timings: timingsSchema });

export const askBody = z.object({
  question: z.string().min(1).max(2000),
  collection_id: z.string().optional(),
  filters: filtersSchema,
});

const sentenceSupport = z.object({
  start: z.number().int(),
  end: z.number().int(),
  text: z.string(),
  cites: z.array(z.number().int()),
  supported: z.boolean(),
  lexical: z.number(),
  cosine: z.number().optional(),
  missing: z.array(z.string()),
});

export const answerSchema = z.object({
  question: z.string(),
  answer: z.string(),
  refused: z.boolean(),
  refusal_reason: z.string().optional(),
  citations: z.array(citationSchema),
  sentences: z.array(sentenceSupport).optional(),
  generator: z.string().optional(),
  gate: z.object({ score: z.number(), threshold: z.number(), features: z.record(z.string(), z.number()) }).optional(),
  retrieved: z.array(retrievedSchema),
  timings: timingsSchema,
});

export const resolveBody = z.object({
  version_id: z.string().min(1),
  chunk_id: z.string().optional(),
  element_id: z.string().optional(),
  anchor: anchorSchema.optional(),
});

const pageView = z.object({
  kind: z.literal('page'),
  artifact: z.enum(['original', 'pdf']),
  artifact_url: z.string(),
  artifact_sha256: z.string(),
  page_index: z.number().int().nonnegative(),
  page_label: z.string().optional(),
  page_width: z.number(),
  page_height: z.number(),
  unit: z.enum(['pt', 'px']),
  rotation: rotationSchema,
  boxes: z.array(boxSchema),
});

const textView = z.object({
  kind: z.literal('text'),
  artifact_url: z.string(),
  text: z.string(),
  text_sha256: z.string(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  raw: z.object({ start: z.number().int(), end: z.number().int() }).optional(),
});

const recordView = z.object({
  kind: z.literal('record'),
  artifact_url: z.string(),
  records: z.array(recordEntrySchema),
  records_sha256: z.string(),
  record_id: z.string(),
  sheet: z.string().optional(),
  row: z.number().int().optional(),
  cell_range: z.string().optional(),
  paragraph_index: z.number().int().optional(),
  physical_lines: z.tuple([z.number().int(), z.number().int()]).optional(),
});

export const resolvedSchema = z.object({
  version: versionSchema,
  newer_version_id: z.string().nullable(),
  element: elementSchema,
  precision: precisionSchema,
  quote: z.string(),
  download_url: z.string(),
  view: z.discriminatedUnion('kind', [pageView, textView, recordView]),
});

export const jobsQuery = z.object({
  state: jobSchema.shape.state.optional(),
  collection_id: z.string().optional(),
  version_id: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
