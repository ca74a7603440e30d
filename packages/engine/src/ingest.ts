import { chunkElements } from '@pinpoint/chunker';
import type {
  Chunk,
  Diagnostic,
  DocumentIdentity,
  Format,
  IndexedChunk,
  Job,
  JobContext,
  ParseOutput,
  Version,
} from '@pinpoint/core';
import { createError, documentIdentitySchema, PinpointError, toPinpointError } from '@pinpoint/core';
import { detectFormat } from '@pinpoint/parsers';
import { readArtifact, storeArtifact } from './artifacts.js';

import type { EngineConfig, EnginePorts } from './config.js';
import { diskFullError } from './disk-space.js';
import { readDocumentIdentity } from './document-identity.js';
import { coverPeriod } from './identity-periods.js';
import { parseFile } from './parse-file.js';
import { recipeFor } from './recipe.js';

const MIME: Partial<Record<Format, string>> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  json: 'application/json',
  csv: 'text/csv',
  tiff: 'image/tiff',
};

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw createError('PP_JOB_CANCELLED', 'The job was cancelled.');
}

function toIndexed(chunk: Chunk): IndexedChunk {
  return {
    chunk_id: chunk.chunk_id,
    version_id: chunk.version_id,
    document_id: chunk.document_id,
    collection_id: chunk.collection_id,
    retrieval_text: chunk.retrieval_text,
    ...(chunk.page_index !== undefined ? { page_index: chunk.page_index } : {}),
  };
}

/**
 * Search sees one version per document — the newest ready one: every other version leaves the index
 * (their chunks and elements stay, so their citations still resolve). A late-finishing older version
 * (a retry) retires itself instead of the newer one.
 */
async function retireOtherVersions(ports: EnginePorts, version: Version): Promise<void> {
  const siblings = await ports.metadata.listVersions({ documentId: version.document_id });
  const ready = siblings.filter((v) => v.state === 'ready' || v.version_id === version.version_id);
  const newest = ready.reduce((a, b) => (b.number > a.number ? b : a), version);
  for (const other of siblings) {
    if (other.version_id === newest.version_id) continue;
    await ports.lexical.deleteVersion(other.version_id);
    await ports.vectors?.deleteVersion(other.version_id);
  }
}

async function storeDerived(ports: EnginePorts, versionId: string, out: ParseOutput): Promise<void> {
  for (const a of out.artifacts) {
    await storeArtifact(ports, { versionId, kind: a.kind, name: a.name, mime: a.mime, bytes: a.bytes });
  }
  const map = new TextEncoder().encode(JSON.stringify(out.sourceMap));
  await storeArtifact(ports, { versionId, kind: 'sourcemap.json', name: 'sourcemap.json', mime: 'application/json', bytes: map });
}

async function index(
  ports: EnginePorts,
  chunks: Chunk[],
  versionId: string,
  ctx: Pick<JobContext, 'signal' | 'progress'>,
): Promise<void> {
  const { vectors, embedder } = ports;
  // The embedder (a thread of its own, or a server) works while the lexical index takes the chunks.
  const embedding =
    vectors && embedder && chunks.length > 0
      ? embedder.embedDocuments(
          chunks.map((c) => c.retrieval_text),
          ctx.signal,
        )
      : null;
  embedding?.catch(() => undefined);
  await ports.lexical.deleteVersion(versionId);
  await ports.lexical.upsert(chunks.map(toIndexed));
  if (!vectors || !embedding) return;
  await ctx.progress({ stage: 'embedding', percent: 80 });
  const embedded = await embedding;
  throwIfCancelled(ctx.signal);
  await vectors.deleteVersion(versionId);
  await vectors.upsert(chunks.map((c, j) => ({ ...toIndexed(c), vector: embedded[j] as Float32Array })));
}

/**
 * What the version is about and when. Reading it never fails an ingest: an identity that breaks its
 * schema, or a reader that throws, leaves the file name's alone.
 */
function identityOf(fileName: string, out: ParseOutput): DocumentIdentity {
  try {
    const read = readDocumentIdentity({ fileName, elements: out.elements, title: out.metadata?.title, coverPeriod });
    const checked = documentIdentitySchema.safeParse(read);
    if (checked.success) return checked.data;
  } catch {
    // the file name's identity below
  }
  return readDocumentIdentity({ fileName, elements: [] });
}

/** parse → artifacts → chunk → store → index → ready. Idempotent: every step replaces what a previous run left. */
async function run(ports: EnginePorts, config: EngineConfig, version: Version, ctx: JobContext): Promise<void> {
  const started = performance.now();
  await ports.metadata.updateVersion(version.version_id, { state: 'processing', error_code: null, error_message: null });
  await ctx.progress({ stage: 'parsing', percent: 5 });
  const { bytes } = await readArtifact(ports, version.version_id, 'original');
  const format = detectFormat(version.original_name, bytes, version.declared_mime ?? undefined);
  await ports.metadata.updateVersion(version.version_id, {
    format,
    sniffed_mime: MIME[format as Format] ?? null,
    recipe: recipeFor(version.original_name, config, format, ports.embedder?.id),
  });
  throwIfCancelled(ctx.signal);
  const out = await parseFile(config.parse, version.original_name, format, bytes, ctx.signal);
  const parseMs = performance.now() - started;
  throwIfCancelled(ctx.signal);
  const stages: Record<string, number> = {};
  let mark = performance.now();
  const lap = (stage: string) => {
    const now = performance.now();
    stages[stage] = Math.round((now - mark) * 10) / 10;
    mark = now;
  };
  await storeDerived(ports, version.version_id, out);
  lap('artifacts');
  await ctx.progress({ stage: 'chunking', percent: 40 });
  const chunks = chunkElements(out.elements, {
    versionId: version.version_id,
    documentId: version.document_id,
    collectionId: version.collection_id,
    title: version.original_name.replace(/\.[^.]+$/, ''),
    ...config.chunk,
  });
  if (chunks.length === 0) throw createError('PP_PARSE_NO_TEXT', `${version.original_name} has no text to index.`);
  lap('chunk');
  await ports.metadata.replaceVersionContent(version.version_id, out.elements, chunks);
  lap('metadata');
  await ctx.progress({ stage: 'indexing', percent: 60 });
  await index(ports, chunks, version.version_id, ctx);
  throwIfCancelled(ctx.signal);
  lap('index');
  const pages = out.sourceMap.pages.length;
  const identity = identityOf(version.original_name, out);
  lap('identity');
  await ports.metadata.updateVersion(version.version_id, {
    identity,
    state: 'ready',
    diagnostics: out.diagnostics,
    stats: {
      ...(pages > 0 ? { pages } : {}),
      elements: out.elements.length,
      chunks: chunks.length,
      parse_ms: Math.round(parseMs),
      stages_ms: stages,
    },
  });
  await retireOtherVersions(ports, version);
  await ctx.progress({ stage: 'done', percent: 100 });
}

/** Indexes a ready version again from its stored chunks (verify --repair: a lost segment, a missing vector). */
export async function reindexVersion(ports: EnginePorts, versionId: string): Promise<void> {
  const chunks = await ports.metadata.listChunks(versionId);
  await index(ports, chunks, versionId, { signal: new AbortController().signal, progress: async () => {} });
}

/** Takes a version out of search after a failed or cancelled run; its stored content is dropped too. */
async function unindex(ports: EnginePorts, versionId: string): Promise<void> {
  await ports.lexical.deleteVersion(versionId);
  await ports.vectors?.deleteVersion(versionId);
  await ports.metadata.deleteVersionContent(versionId);
}

/**
 * A cancel that lands after the run marked the version ready: the job's outcome wins. The version
 * ends cancelled with nothing of it searchable, and the version it displaced from search (the
 * document's newest remaining ready one, when older) is indexed again from its stored chunks.
 */
export async function withdrawVersion(ports: EnginePorts, version: Version, message: string | null): Promise<void> {
  // The state changes last: a withdrawal that dies half-way leaves the version ready (so
  // reconcileVersions finds it again) and never a cancelled version whose predecessor is unindexed.
  await unindex(ports, version.version_id);
  const ready = (await ports.metadata.listVersions({ documentId: version.document_id })).filter(
    (v) => v.state === 'ready' && v.version_id !== version.version_id,
  );
  const newest = ready.reduce<Version | null>((a, b) => (a && a.number > b.number ? a : b), null);
  if (newest && newest.number < version.number) {
    const chunks = await ports.metadata.listChunks(newest.version_id);
    await index(ports, chunks, newest.version_id, { signal: new AbortController().signal, progress: async () => {} });
  }
  await ports.metadata.updateVersion(version.version_id, {
    state: 'cancelled',
    error_code: 'PP_JOB_CANCELLED',
    error_message: message ?? 'The job was cancelled after its version became ready.',
  });
}

/** A failure in our words: an uncoded exception's own text becomes the detail, not the message. */
async function ingestError(ports: EnginePorts, version: Version, err: unknown): Promise<PinpointError> {
  const e = toPinpointError(err);
  if (e.code === 'PP_DISK_FULL') return diskFullError(err, `Ingesting ${version.original_name}`, ports.dataDir);
  if (e.code !== 'PP_INTERNAL' || err instanceof PinpointError) return e;
  return createError('PP_INTERNAL', `Ingesting ${version.original_name} stopped on an unexpected error; retrying may help.`, err);
}

/**
 * What the library behind a failure said, for administrators (the job console shows a version's
 * diagnostics); the user-facing message stays our own sentence.
 */
function failureDiagnostics(e: PinpointError): Diagnostic[] {
  if (!e.detail) return [];
  return [{ rule_id: 'ingest/failure-detail', reason: e.detail.slice(0, 2000), severity: 'error' }];
}

/**
 * Takes a failed or cancelled run out of search and marks its version. Best effort: on a full disk
 * even these writes may be refused; the job's outcome then reaches the version through
 * syncVersionWithJob, and a later run replaces whatever of this one is left.
 */
async function recordFailure(ports: EnginePorts, version: Version, e: PinpointError): Promise<void> {
  const cancelled = e.code === 'PP_JOB_CANCELLED';
  try {
    await unindex(ports, version.version_id);
    await ports.metadata.updateVersion(version.version_id, {
      state: cancelled ? 'cancelled' : 'failed',
      error_code: e.code,
      error_message: e.message,
      ...(cancelled ? {} : { diagnostics: failureDiagnostics(e) }),
    });
  } catch (err) {
    if (e.code !== 'PP_DISK_FULL') throw err;
  }
}

/** The ingestion job processor: the one place the pipeline lives (API worker loop, CLI, eval, distributed worker). */
export function createIngestProcessor(ports: EnginePorts, config: EngineConfig): (job: Job, ctx: JobContext) => Promise<void> {
  return async (job, ctx) => {
    const version = await ports.metadata.getVersion(job.version_id);
    if (!version) throw createError('PP_NOT_FOUND', `Version ${job.version_id} of job ${job.job_id} does not exist.`);
    if (version.state === 'ready') return;
    try {
      await run(ports, config, version, ctx);
    } catch (err) {
      const e = ctx.signal.aborted
        ? createError('PP_JOB_CANCELLED', 'The job was cancelled.', err)
        : await ingestError(ports, version, err);
      if (e.code === 'PP_JOB_CANCELLED' || !e.retryable) await recordFailure(ports, version, e);
      // Retryable errors leave the version processing; the queue retries, and a job that finally fails
      // marks its version failed (and a cancel that lands after "ready" withdraws it) through syncVersionWithJob.
      throw e;
    }
  };
}
