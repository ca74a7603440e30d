import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLexicalIndex } from '@pinpoint/retrieval';
import { FsBlobStore, SqliteAccessStore, SqliteJobQueue, SqliteMetadataStore } from '@pinpoint/storage';
import { describeAccessStoreConformance } from './access-store.js';
import { describeBlobStoreConformance } from './blob-store.js';
import { describeJobQueueConformance } from './job-queue.js';
import { describeLexicalIndexConformance } from './lexical-index.js';
import { describeMetadataStoreConformance } from './metadata-store.js';

async function inTempDir<T extends { close(): Promise<void> }>(make: (dir: string) => T) {
  const dir = await mkdtemp(join(tmpdir(), 'pp-conformance-'));
  const port = make(dir);
  return {
    port,
    dispose: async () => {
      await port.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describeMetadataStoreConformance('SqliteMetadataStore', () => inTempDir((dir) => new SqliteMetadataStore(join(dir, 'meta.db'))));
describeBlobStoreConformance('FsBlobStore', () => inTempDir((dir) => new FsBlobStore(join(dir, 'blobs'))));
describeJobQueueConformance('SqliteJobQueue', () =>
  inTempDir((dir) => new SqliteJobQueue({ path: join(dir, 'q.db'), backoffMs: 10, pollMs: 10 })),
);
describeLexicalIndexConformance('SqliteLexicalIndex', () => inTempDir((dir) => openLexicalIndex(join(dir, 'lexical.db'))));
describeAccessStoreConformance('SqliteAccessStore', () => inTempDir((dir) => new SqliteAccessStore(join(dir, 'meta.db'))));
