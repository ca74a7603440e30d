import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startFakeOllama, startFakeQdrant } from '@pinpoint/testing';
import { describe, expect, it } from 'vitest';
import { createThrowawayDeployment } from '../test/throwaway-deployment.js';

const NORMANS = fileURLToPath(new URL('../../../../shared/eval/squad2-dev/docs/000_Normans.md', import.meta.url));

describe('distributed worker with an embedder', () => {
  it('embeds while ingesting into the Qdrant collection the API reads (wire-level fakes of Ollama and Qdrant)', async () => {
    const ollama = await startFakeOllama(32);
    const qdrant = await startFakeQdrant();
    const d = await createThrowawayDeployment({
      PINPOINT_PARSE_ISOLATE: 'false',
      PINPOINT_EMBEDDER: 'ollama',
      PINPOINT_EMBEDDER_MODEL: 'fake-embed',
      PINPOINT_EMBEDDER_DIMENSIONS: '32',
      PINPOINT_OLLAMA_URL: ollama.url,
      PINPOINT_VECTORS: 'qdrant',
      PINPOINT_QDRANT_URL: qdrant.url,
      PINPOINT_QDRANT_COLLECTION: `pp_${randomUUID().slice(0, 8)}`,
    });
    try {
      const { embedder, vectors } = d.ports;
      if (!embedder || !vectors) throw new Error('the deployment has no embedder or vector store');
      await d.spawnWorker();
      const [upload] = await d.uploadFiles([NORMANS]);
      const versionId = upload?.version.version_id ?? '';
      const [version] = await d.engine.waitForVersions([versionId], { timeoutMs: 120_000 });
      expect(version?.state).toBe('ready');
      const chunks = await d.ports.metadata.listChunks(versionId);
      const hits = await vectors.search(await embedder.embedQuery(chunks[3]?.retrieval_text ?? ''), { k: 5 });
      expect(hits[0]?.chunk_id).toBe(chunks[3]?.chunk_id);
      const all = await vectors.search(await embedder.embedQuery('Normans'), { k: 1000, filter: { versionIds: [versionId] } });
      expect(all).toHaveLength(chunks.length);
      expect(ollama.requests.length).toBeGreaterThan(1);
    } finally {
      await d.dispose();
      await qdrant.close();
      await ollama.close();
    }
  }, 180_000);

  it('can keep the lexical index in Qdrant sparse vectors instead of PostgreSQL (PINPOINT_LEXICAL=qdrant)', async () => {
    const qdrant = await startFakeQdrant();
    const d = await createThrowawayDeployment({
      PINPOINT_PARSE_ISOLATE: 'false',
      PINPOINT_LEXICAL: 'qdrant',
      PINPOINT_QDRANT_URL: qdrant.url,
      PINPOINT_QDRANT_LEXICAL_COLLECTION: `pp_lex_${randomUUID().slice(0, 8)}`,
    });
    try {
      await d.spawnWorker();
      const [upload] = await d.uploadFiles([NORMANS]);
      const [version] = await d.engine.waitForVersions([upload?.version.version_id ?? ''], { timeoutMs: 120_000 });
      expect(version?.state).toBe('ready');
      const { hits } = await d.engine.search('Duchy of Normandy', {});
      expect(hits[0]?.version_id).toBe(version?.version_id);
      expect(qdrant.calls.some((c) => c.includes('pp_lex_'))).toBe(true);
    } finally {
      await d.dispose();
      await qdrant.close();
    }
  }, 180_000);
});
