import {
  anchorSchema,
  calculationSchema,
  citationSchema,
  documentIdentitySchema,
  documentSchema,
  figureValueSchema,
  precisionSchema,
  questionScopeSchema,
  versionSchema,
} from '@pinpoint/core';
import { z } from 'zod';

/**
 * Input and output shapes of the MCP tools. Inputs are strict (an unknown argument is a
 * PP_VALIDATION error naming it, so an agent's typo is not silently ignored); outputs are what
 * `structuredContent` carries and what the SDK's client checks it against.
 */
const id = z.string().min(1).max(200);
const collectionId = id.optional().describe('Only this collection; every collection the caller can read when absent.');

export const searchInput = z.strictObject({
  query: z.string().trim().min(1).max(2000).describe('What to look for, in any language.'),
  collection_id: collectionId,
  k: z.number().int().min(1).max(50).optional().describe('How many chunks to return (default 10).'),
});

export const searchOutput = z.object({
  query: z.string(),
  hits: z.array(
    z.object({
      rank: z.number().int().positive(),
      file: z.string(),
      document_id: z.string(),
      version_id: z.string(),
      chunk_id: z.string(),
      element_id: z.string(),
      page_index: z.number().int().nonnegative().optional().describe('0-based page, paged formats only.'),
      page_label: z.string().optional().describe('The page number printed on the page, where there is one.'),
      section_path: z.array(z.string()),
      anchor: anchorSchema.describe('Where the chunk starts in the original: pass the hit to open_citation to open it.'),
      score: z.number().describe('The score of the last ranking stage (higher is better).'),
      text: z.string(),
    }),
  ),
});

export const askInput = z.strictObject({
  question: z.string().trim().min(1).max(2000).describe('A question the documents may answer.'),
  collection_id: collectionId,
});

export const askOutput = z.object({
  question: z.string(),
  answer: z.string(),
  refused: z.boolean().describe('True when the documents do not answer the question: then there are no citations.'),
  refusal_reason: z.string().optional(),
  citations: z.array(citationSchema),
  value: figureValueSchema.optional().describe('A figure answer: the number stated, with its unit and scale.'),
  calculation: calculationSchema
    .optional()
    .describe('A computed figure: its expression over the cited cells, and each operand with its citation number n.'),
  scope: questionScopeSchema
    .optional()
    .describe('The documents the question named and was asked of (absent: the whole collection); `summary` says which and why.'),
});

/** A citation of `ask` or a hit of `search`: only where it points is read, the rest is ignored. */
const citationRef = z.object({
  version_id: id,
  chunk_id: id.optional(),
  element_id: id.optional(),
  anchor: anchorSchema.optional(),
  n: z.number().int().positive().optional(),
});

export const openCitationInput = z.strictObject({
  citation: citationRef.describe('A citation from ask (or a hit from search), as it was returned.'),
  question: z.string().max(2000).optional().describe('The question it answered, for the reader\u2019s way back.'),
});

export const openCitationOutput = z.object({
  reader_url: z.string().describe('Opens the original in the source reader with the cited place highlighted.'),
  download_url: z.string().describe('Signed, expiring link to the original file, byte-identical.'),
  download_expires_at: z.string(),
  file: z.string(),
  version_id: z.string(),
  precision: precisionSchema,
  quote: z.string(),
  newer_version_id: z.string().nullable().describe('A newer version of the file exists: the citation stays on its own.'),
});

export const listCollectionsInput = z.strictObject({});

export const listCollectionsOutput = z.object({
  collections: z.array(
    z.object({
      collection_id: z.string(),
      name: z.string(),
      created_at: z.string(),
      role: z.enum(['viewer', 'editor', 'admin']).describe('What the caller may do there.'),
    }),
  ),
});

export const getDocumentInput = z.strictObject({ document_id: id });

export const getDocumentOutput = z.object({
  document: documentSchema,
  versions: z.array(versionSchema).describe('Newest first, each with its state (queued, processing, ready, failed…).'),
  latest_ready_version_id: z.string().nullable(),
  identity: documentIdentitySchema
    .nullable()
    .describe('What the document is about and when: names, kind, period, each with where it was read (editor: a correction).'),
});
