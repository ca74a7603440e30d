import type { Chunk, MetadataStore } from '@pinpoint/core';
import type { RowHit } from './table-answer.js';

/**
 * Ranked lexical hits as row hits: each with its chunk and its file's name. Chunks and files already
 * loaded (`known`) are not read again; the rest is read in one query, files once per version.
 */
export async function rowHitsOf(
  metadata: MetadataStore,
  hits: { chunk_id: string; rank: number }[],
  known: { chunks?: Map<string, Chunk>; files?: Map<string, string> } = {},
): Promise<RowHit[]> {
  const chunks = new Map(known.chunks ?? []);
  const unread = hits.filter((h) => !chunks.has(h.chunk_id)).map((h) => h.chunk_id);
  for (const c of await metadata.getChunks(unread)) chunks.set(c.chunk_id, c);
  const files = new Map(known.files ?? []);
  const out: RowHit[] = [];
  for (const h of hits) {
    const chunk = chunks.get(h.chunk_id);
    if (!chunk) continue;
    let file = files.get(chunk.version_id);
    if (file === undefined) {
      file = (await metadata.getVersion(chunk.version_id))?.original_name ?? '';
      files.set(chunk.version_id, file);
    }
    out.push({ chunk, file, rank: h.rank });
  }
  return out;
}
