import { anchorSchema, errorResponseSchema, jobSchema } from '@pinpoint/core';
import { z } from 'zod';

/**
 * Request shapes of the HTTP API (docs/api.md): bodies, parameters and queries. The response
 * shapes are the contract in @pinpoint/core (contract.ts), shared with the engine and the web.
 */
export const errorResponse = errorResponseSchema;

const id = z.string().min(1).max(200);
export const collectionParams = z.object({ collectionId: id });
export const documentParams = z.object({ documentId: id });
export const versionParams = z.object({ versionId: id });
export const jobParams = z.object({ jobId: id });
/** Raw bytes (artifacts, downloads): not serialized. */
export const bytesResponse = z.unknown().describe('The raw bytes.');

const filtersSchema = z
  .object({
    document_ids: z.array(z.string()).max(1000).optional(),
    version_ids: z.array(z.string()).max(1000).optional(),
    page_indexes: z.array(z.number().int().nonnegative()).max(10000).optional(),
  })
  .optional();

export const searchBody = z.object({
  query: z.string().min(1).max(2000),
  collection_id: z.string().optional(),
  filters: filtersSchema,
  k: z.number().int().min(1).max(100).optional(),
});

export const askBody = z.object({
  question: z.string().min(1).max(2000),
  collection_id: z.string().optional(),
  filters: filtersSchema,
  /** false: ask the whole collection even when the question names documents (the scope chip removed). */
  scope: z.boolean().optional(),
});

export const resolveBody = z.object({
  version_id: z.string().min(1),
  chunk_id: z.string().optional(),
  element_id: z.string().optional(),
  anchor: anchorSchema.optional(),
});

export const jobsQuery = z.object({
  state: jobSchema.shape.state.optional(),
  collection_id: z.string().optional(),
  version_id: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
