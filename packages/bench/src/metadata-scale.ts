/**
 * `pnpm bench --metadata-scale N [--json]`: the embedded metadata store alone at N chunks. A pool of
 * reports (the generator of `--scale`) is ingested once by the engine; its versions' elements and
 * chunks are then written again and again under new documents and versions, with the calls the
 * ingestion job makes per version (document, version, artifacts, state updates, content, siblings),
 * until the store holds N chunks. Reports chunks/s and CPU per tenth, and bytes on disk per chunk —
 * how the store's writes grow with its size, without the analysis and the lexical index around them.
 */
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedEngine } from '@pinpoint/cli';
import { openEmbeddedPorts } from '@pinpoint/compose';
import type { Artifact, Chunk, Element, MetadataStore, Version } from '@pinpoint/core';
import { sha256Hex } from '@pinpoint/core';
import { defaultEngineConfig } from '@pinpoint/engine';
import { reports, sentencePools } from './scale.js';

export interface MetadataScaleResult {
  chunks: number;
  versions: number;
  /** Chunks per second of wall time and per CPU second (user + system) of this process, per tenth of the run. */
  tenths_chunks_per_s: number[];
  tenths_chunks_per_cpu_s: number[];
  user_s: number;
  system_s: number;
  load_average: number[];
  metadata_bytes: number;
  bytes_per_chunk: number;
}

interface PoolEntry {
  version: Version;
  artifacts: Artifact[];
  elements: Element[];
  chunks: Chunk[];
}

/** Versions the engine ingested from `count` generated reports: what the replay writes again. */
async function pool(shared: string, dir: string, count: number): Promise<PoolEntry[]> {
  const engine = openEmbeddedEngine(join(dir, 'pool'), {
    ...defaultEngineConfig,
    parse: { ...defaultEngineConfig.parse, isolate: false },
  });
  try {
    engine.startWorker({ concurrency: 2 });
    const collection = await engine.ensureCollection('pool');
    const gen = reports(sentencePools(shared), 7);
    const files = Array.from({ length: count }, () => {
      const r = gen.next().value as { name: string; text: string };
      return { name: r.name, bytes: new TextEncoder().encode(r.text) };
    });
    const uploaded = await engine.upload(collection.collection_id, files);
    const versions = await engine.waitForVersions(
      uploaded.map((u) => u.version.version_id),
      { timeoutMs: 600_000 },
    );
    const m = engine.ports.metadata;
    return await Promise.all(
      versions.map(async (version) => ({
        version,
        artifacts: await m.listArtifacts(version.version_id),
        elements: await m.getElements(version.version_id),
        chunks: await m.listChunks(version.version_id),
      })),
    );
  } finally {
    await engine.close();
  }
}

const bytesOf = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/** One version written the way the ingestion job writes it (upload, then the run of createIngestProcessor). */
async function writeVersion(m: MetadataStore, collectionId: string, n: number, from: PoolEntry): Promise<number> {
  const name = `report-${String(n).padStart(8, '0')}.txt`;
  const sha = sha256Hex(`${name}\u0000${from.version.source_sha256}`);
  const document = await m.findOrCreateDocument(collectionId, name);
  const { version } = await m.createVersion({
    document_id: document.document_id,
    collection_id: collectionId,
    source_sha256: sha,
    original_name: name,
    declared_mime: null,
    size: from.version.size,
    recipe: from.version.recipe,
  });
  const v = version.version_id;
  for (const a of from.artifacts) {
    const own = a.kind === 'original' ? sha : sha256Hex(`${sha}\u0000${a.name}`);
    await m.putArtifact({ ...a, version_id: v, sha256: own, blob_key: `sha256/${own.slice(0, 2)}/${own}` });
  }
  await m.updateVersion(v, { state: 'processing', error_code: null, error_message: null });
  await m.updateVersion(v, { format: from.version.format, sniffed_mime: from.version.sniffed_mime, recipe: from.version.recipe });
  const chunks = from.chunks.map((c) => ({
    ...c,
    chunk_id: `${v}:c${String(c.ordinal).padStart(6, '0')}`,
    version_id: v,
    document_id: document.document_id,
    collection_id: collectionId,
  }));
  await m.replaceVersionContent(v, from.elements, chunks);
  await m.updateVersion(v, { state: 'ready', diagnostics: from.version.diagnostics, stats: from.version.stats });
  await m.listVersions({ documentId: document.document_id });
  return chunks.length;
}

export async function benchMetadataScale(
  shared: string,
  o: { chunks: number; log: (line: string) => void },
): Promise<MetadataScaleResult> {
  const dir = await mkdtemp(join(tmpdir(), 'pinpoint-metadata-scale-'));
  try {
    const entries = await pool(shared, dir, 300);
    o.log(`pool: ${entries.length} versions, ${entries.reduce((n, e) => n + e.chunks.length, 0)} chunks`);
    const data = join(dir, 'data');
    const ports = openEmbeddedPorts(data);
    await ports.lexical.close();
    const m = ports.metadata;
    const loads = [loadavg()[0] ?? 0];
    const collection = await m.createCollection('scale');
    const tenth = o.chunks / 10;
    const marks: { wall: number; cpu: number }[] = [];
    const cpu0 = process.cpuUsage();
    const cpuSeconds = () => {
      const c = process.cpuUsage(cpu0);
      return (c.user + c.system) / 1e6;
    };
    const started = performance.now();
    let done = 0;
    let versions = 0;
    while (done < o.chunks) {
      const before = done;
      done += await writeVersion(m, collection.collection_id, versions, entries[versions % entries.length] as PoolEntry);
      versions++;
      if (Math.floor(before / tenth) !== Math.floor(done / tenth) || done >= o.chunks) {
        const wall = (performance.now() - started) / 1000;
        marks.push({ wall, cpu: cpuSeconds() });
        loads.push(loadavg()[0] ?? 0);
        o.log(
          `  ${done} chunks in ${wall.toFixed(1)} s (${(done / wall).toFixed(0)} chunks/s, ${(done / cpuSeconds()).toFixed(0)} per CPU s)`,
        );
      }
    }
    const cpu = process.cpuUsage(cpu0);
    await m.close();
    await ports.queue.close();
    const bytes = bytesOf(join(data, 'metadata.db')) + bytesOf(join(data, 'metadata.db-wal'));
    const rate = (key: 'wall' | 'cpu') =>
      marks
        .slice(0, 10)
        .map((mk, i) => Math.round(tenth / Math.max(1e-6, mk[key] - (i > 0 ? (marks[i - 1] as typeof mk)[key] : 0))));
    return {
      chunks: done,
      versions,
      tenths_chunks_per_s: rate('wall'),
      tenths_chunks_per_cpu_s: rate('cpu'),
      user_s: Math.round(cpu.user / 1e5) / 10,
      system_s: Math.round(cpu.system / 1e5) / 10,
      load_average: loads.map((l) => Math.round(l * 10) / 10),
      metadata_bytes: bytes,
      bytes_per_chunk: Math.round(bytes / done),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
