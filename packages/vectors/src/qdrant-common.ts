import { createHash } from 'node:crypto';
import { createError, type SearchFilter } from '@pinpoint/core';
import { QdrantClient } from '@qdrant/js-client-rest';

export function qdrantClient(options: { url: string; apiKey?: string }): QdrantClient {
  return new QdrantClient({ url: options.url, ...(options.apiKey ? { apiKey: options.apiKey } : {}), checkCompatibility: false });
}

/** Qdrant point ids are uuids or integers: a chunk id maps to a stable uuid from its sha256. */
export function pointId(chunkId: string): string {
  const h = createHash('sha256').update(chunkId).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

type Condition = { key: string; match: { any: string[] | number[] } };
export function toQdrantFilter(filter: SearchFilter | undefined): { must: Condition[] } | undefined {
  if (!filter) return undefined;
  const must: Condition[] = [];
  if (filter.collectionIds) must.push({ key: 'collection_id', match: { any: filter.collectionIds } });
  if (filter.documentIds) must.push({ key: 'document_id', match: { any: filter.documentIds } });
  if (filter.versionIds) must.push({ key: 'version_id', match: { any: filter.versionIds } });
  if (filter.pageIndexes) must.push({ key: 'page_index', match: { any: filter.pageIndexes } });
  return { must };
}

export function fail(err: unknown, what: string): never {
  const status = (err as { status?: number }).status;
  if (status === 429) throw createError('PP_PROVIDER_RATE_LIMITED', `Qdrant ${what}: rate limited`, err);
  if (status === undefined || status >= 500)
    throw createError(
      'PP_PROVIDER_UNAVAILABLE',
      `Qdrant ${what} failed: ${(err as Error).message}; check PINPOINT_QDRANT_URL`,
      err,
    );
  throw createError('PP_PROVIDER_BAD_RESPONSE', `Qdrant ${what} was rejected (HTTP ${status}): ${(err as Error).message}`, err);
}

interface Point {
  id: string;
  vector: Record<string, number[] | { indices: number[]; values: number[] }>;
  payload: Record<string, unknown>;
}

/** Upserts in batches of `batchSize` so each request stays well under Qdrant's request body limit. */
export async function upsertPoints(client: QdrantClient, collection: string, points: Point[], batchSize: number): Promise<void> {
  for (let i = 0; i < points.length; i += batchSize) {
    const batch = points.slice(i, i + batchSize);
    await client.upsert(collection, { wait: true, points: batch }).catch((err: unknown) => fail(err, 'upsert'));
  }
}

/** Deletes every point of one version. */
export async function deleteVersionPoints(client: QdrantClient, collection: string, versionId: string): Promise<void> {
  const filter = { must: [{ key: 'version_id', match: { value: versionId } }] };
  await client.delete(collection, { wait: true, filter }).catch((err: unknown) => fail(err, 'delete'));
}
