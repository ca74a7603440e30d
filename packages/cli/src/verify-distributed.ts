import { ANALYZER_ID, analyze } from '@pinpoint/analysis';
import type { BlobStore } from '@pinpoint/core';
import { reindexVersion } from '@pinpoint/engine';
import { PgLexicalIndex, PgMetadataStore } from '@pinpoint/postgres';
import { defaultTermWeight } from '@pinpoint/retrieval';
import { S3BlobStore } from '@pinpoint/s3';
import { FsBlobStore } from '@pinpoint/storage';
import type { CliConfig } from './config.js';
import type { VerifyReport } from './verify.js';
import { checkBlobs, compareIndex, expectedChunks, type Problem } from './verify-checks.js';

interface DistributedStores {
  metadata: PgMetadataStore;
  lexical: PgLexicalIndex | null;
  blobs: BlobStore;
  close(): Promise<void>;
}

async function openStores(cfg: CliConfig): Promise<DistributedStores> {
  if (cfg.accounts.kind !== 'distributed') throw new Error('verifyDistributed needs PINPOINT_MODE=distributed');
  const { databaseUrl, pgSchema } = cfg.accounts;
  const metadata = await PgMetadataStore.open({ connectionString: databaseUrl, schema: pgSchema });
  const lexical =
    cfg.distributed.lexical === 'postgres'
      ? await PgLexicalIndex.open({
          connectionString: databaseUrl,
          schema: pgSchema,
          analyzer: { id: ANALYZER_ID, analyze },
          termWeight: defaultTermWeight,
        })
      : null;
  const b = cfg.distributed.blobs;
  const blobs = b.kind === 's3' ? new S3BlobStore(b) : new FsBlobStore(cfg.distributed.blobDir);
  return {
    metadata,
    lexical,
    blobs,
    close: async () => {
      await Promise.all([metadata.close(), lexical?.close(), blobs.close()]);
    },
  };
}

async function inspect(stores: DistributedStores, progress: (l: string) => void): Promise<VerifyReport> {
  progress('index contents');
  const expected = await expectedChunks(stores.metadata);
  const problems: Problem[] = [];
  const held = (await stores.lexical?.indexedChunks()) ?? new Map<string, string>();
  if (stores.lexical) {
    problems.push(...compareIndex('lexical', held, expected));
    for (const [chunk, version] of await stores.lexical.chunksWithoutPostings()) {
      problems.push({
        kind: 'lexical',
        version_id: version,
        message: `lexical chunk ${chunk} of version ${version} has lost its postings`,
      });
    }
  }
  progress('blobs');
  problems.push(...(await checkBlobs(stores.metadata, stores.blobs, expected.versions.values())));
  return {
    mode: 'distributed',
    problems,
    repaired: [],
    checked: { versions: expected.versions.size, ready_chunks: expected.chunks.size, lexical_chunks: held.size, vectors: null },
  };
}

/**
 * verify against PostgreSQL (metadata, lexical index) and the blob store (shared volume or S3).
 * Repair re-indexes the versions the lexical index lacks and withdraws orphans, through the same
 * port the workers write with. The Qdrant indexes and BullMQ's own stalled-job recovery are left to
 * their engines (docs/operations.md).
 */
export async function verifyDistributed(
  cfg: CliConfig,
  options: { repair: boolean; progress: (l: string) => void },
): Promise<VerifyReport> {
  const stores = await openStores(cfg);
  try {
    const found = await inspect(stores, options.progress);
    if (!options.repair || !stores.lexical) return found;
    const versions = new Set(
      found.problems.filter((p) => p.kind === 'lexical' && p.version_id).map((p) => p.version_id as string),
    );
    const ready = new Set(await stores.metadata.latestReadyVersionIds());
    const ports = { metadata: stores.metadata, lexical: stores.lexical } as unknown as Parameters<typeof reindexVersion>[0];
    for (const id of versions) {
      if (ready.has(id)) await reindexVersion(ports, id);
      else await stores.lexical.deleteVersion(id);
    }
    const repaired = versions.size > 0 ? [`re-indexed or withdrew ${versions.size} versions in the lexical index`] : [];
    return { ...(await inspect(stores, options.progress)), repaired };
  } finally {
    await stores.close();
  }
}
