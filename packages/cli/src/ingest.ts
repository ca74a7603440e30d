import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { PinpointError, Version } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type { Engine, UploadResult } from '@pinpoint/engine';
import { diskFullError } from '@pinpoint/engine';

/** One line of `pinpoint ingest --json` (DESIGN.md §7). */
export interface IngestLine {
  file: string;
  document_id: string;
  version_id: string;
  state: 'ready' | 'failed' | 'cancelled';
  error_code?: string;
  message?: string;
  format: string | null;
  pages?: number;
  elements: number;
  chunks: number;
  diagnostics: { rule_id: string; reason: string }[];
  seconds: number;
}

function lineFor(file: string, v: Version, seconds: number): IngestLine {
  return {
    file,
    document_id: v.document_id,
    version_id: v.version_id,
    state: v.state as IngestLine['state'],
    ...(v.error_code ? { error_code: v.error_code } : {}),
    ...(v.error_message ? { message: v.error_message } : {}),
    format: v.format,
    ...(v.stats.pages !== undefined ? { pages: v.stats.pages } : {}),
    elements: v.stats.elements ?? 0,
    chunks: v.stats.chunks ?? 0,
    diagnostics: v.diagnostics.map((d) => ({ rule_id: d.rule_id, reason: d.reason })),
    seconds: Math.round(seconds * 1000) / 1000,
  };
}

const SETTLED = new Set(['ready', 'failed', 'cancelled']);

/**
 * The paths largest first (a path that cannot be read keeps its place among the smallest): jobs run in
 * upload order, and the longest parse started last kept the other workers idle while it finished.
 */
async function largestFirst(paths: string[]): Promise<string[]> {
  const sizeOf = (path: string): Promise<number> =>
    stat(path)
      .then((s) => s.size)
      .catch(() => 0);
  const sizes = await Promise.all(paths.map(sizeOf));
  return paths
    .map((path, i) => ({ path, size: sizes[i] ?? 0 }))
    .sort((a, b) => b.size - a.size)
    .map((p) => p.path);
}

/** `largestFirst`: queue the files by size, largest first, instead of in the order given. */
export interface IngestOptions {
  concurrency?: number;
  largestFirst?: boolean;
}

/**
 * Uploads the files into the collection, runs the ingestion worker in this process, and calls
 * `onSettled` once per file as it becomes ready, failed or cancelled. The eval keeps the order given:
 * equal scores rank by chunk number, which follows it.
 */
export async function ingestFiles(
  engine: Engine,
  collectionName: string,
  paths: string[],
  onSettled: (line: IngestLine) => void,
  options: IngestOptions = {},
): Promise<IngestLine[]> {
  const started = performance.now();
  const collection = await engine.ensureCollection(collectionName);
  // the worker starts with the first upload: the first parse (and its parser child's start-up) overlaps the rest
  const runner = engine.startWorker({ concurrency: options.concurrency ?? 1 });
  try {
    const uploaded = await uploadAll(engine, collection.collection_id, paths, options);
    return await settleAll(engine, uploaded, onSettled, started, () => runner.stalledBy?.() ?? null);
  } finally {
    await runner.stop();
  }
}

async function uploadAll(engine: Engine, collectionId: string, paths: string[], options: IngestOptions) {
  const results: UploadResult[] = [];
  for (const path of options.largestFirst ? await largestFirst(paths) : paths) {
    const bytes = new Uint8Array(
      await readFile(path).catch((err) =>
        Promise.reject(createError('PP_NOT_FOUND', `Cannot read ${path}: ${(err as Error).message}`, err)),
      ),
    );
    results.push(...(await engine.upload(collectionId, [{ name: basename(path), bytes }])));
  }
  return results;
}

/** How long the worker may be unable to record anything (a full disk) before ingest stops waiting. */
const STALL_GIVE_UP_MS = 3000;

/** The stall, and what it leaves waiting: the files stay queued and run once the worker can write again. */
async function stalledError(engine: Engine, stall: PinpointError, pending: Map<string, string>): Promise<PinpointError> {
  const files = [...pending.values()];
  const e = stall.code === 'PP_DISK_FULL' ? await diskFullError(stall, 'The ingestion worker', engine.ports.dataDir) : stall;
  return createError(
    e.code,
    `${e.message} ${files.length} file(s) wait, queued: ${files.join(', ')}; they run at the next \`pinpoint ingest\` or server start.`,
    stall,
  );
}

/** Calls `onSettled` for each uploaded version as it becomes ready, failed or cancelled. */
async function settleAll(
  engine: Engine,
  results: UploadResult[],
  onSettled: (line: IngestLine) => void,
  started: number,
  stalledBy: () => PinpointError | null,
): Promise<IngestLine[]> {
  const pending = new Map(results.map((r) => [r.version.version_id, r.file]));
  const lines: IngestLine[] = [];
  let stalledSince: number | null = null;
  while (pending.size > 0) {
    const stall = stalledBy();
    stalledSince = stall ? (stalledSince ?? performance.now()) : null;
    if (stall && stalledSince !== null && performance.now() - stalledSince > STALL_GIVE_UP_MS)
      throw await stalledError(engine, stall, pending);
    for (const [versionId, file] of pending) {
      // the version row alone: its artifacts and siblings (engine.getVersion) cost the workers' CPU every 50 ms
      const v = await engine.ports.metadata.getVersion(versionId);
      if (!v) throw createError('PP_NOT_FOUND', `Version ${versionId} does not exist.`);
      if (!SETTLED.has(v.state)) continue;
      const line = lineFor(file, v, (performance.now() - started) / 1000);
      pending.delete(versionId);
      lines.push(line);
      onSettled(line);
    }
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 50));
  }
  return lines;
}

export function humanIngestLine(l: IngestLine): string {
  if (l.state !== 'ready') return `✗ ${l.file}  ${l.state}  ${l.error_code ?? ''}  ${l.message ?? ''}`;
  const pages = l.pages !== undefined ? `  ${l.pages} pages` : '';
  return `✓ ${l.file}  ${l.format ?? '?'}${pages}  ${l.elements} elements  ${l.chunks} chunks  ${l.seconds.toFixed(1)} s`;
}
