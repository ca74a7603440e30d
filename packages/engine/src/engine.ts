import type {
  Answer,
  ArtifactKind,
  Collection,
  DocumentSummary,
  Element,
  IdentityCorrection,
  Job,
  JobProcessor,
  JobQueue,
  JobRunner,
  ResolvedCitation,
  SearchResponse,
  UploadResult,
  Version,
  VersionDetail,
} from '@pinpoint/core';
import { createError, toPinpointError } from '@pinpoint/core';
import { readArtifact } from './artifacts.js';
import { correctIdentity, getDocument, getVersionDetail, listDocuments, waitForVersions } from './catalog.js';
import type { CitationRef } from './citations.js';
import { resolveCitation } from './citations.js';
import type { EngineConfig, EnginePorts } from './config.js';
import { deleteDocument } from './delete.js';
import { refuseUploadsWhenLow } from './disk-space.js';
import { createIngestProcessor } from './ingest.js';
import type { AskEvent, QueryOptions } from './query.js';
import { ask, askStream, search } from './query.js';
import { effectiveSettings } from './settings.js';
import type { UploadFile } from './upload.js';
import { reprocess, upload } from './upload.js';
import type { EngineLog } from './version-sync.js';
import { followJobs, reconcileVersions, stderrLog } from './version-sync.js';

/** The jobs, as callers see them: listed, read, cancelled, retried, followed. */
export type EngineJobs = Pick<JobQueue, 'list' | 'get' | 'cancel' | 'retry' | 'subscribe'>;

export interface Engine {
  readonly config: EngineConfig;
  /** The adapters, for the composition roots and tests; routes and tools use the methods below. */
  readonly ports: EnginePorts;
  listCollections(): Promise<Collection[]>;
  createCollection(name: string): Promise<Collection>;
  /** The collection named `name`, created when missing. */
  ensureCollection(name: string): Promise<Collection>;
  upload(collectionId: string, files: UploadFile[]): Promise<UploadResult[]>;
  /** Throws PP_DISK_FULL while uploads are refused for want of space (before a request's files are read). */
  checkUploadSpace(): Promise<void>;
  reprocess(versionId: string): Promise<{ version: Version; job: Job }>;
  /** The ingestion processor, for any JobQueue. */
  readonly process: JobProcessor;
  /** Starts consuming the queue in this process. */
  startWorker(options?: { concurrency?: number }): JobRunner;
  waitForVersions(versionIds: string[], options?: { timeoutMs?: number }): Promise<Version[]>;
  search(query: string, options?: QueryOptions): Promise<SearchResponse>;
  ask(question: string, options?: QueryOptions): Promise<Answer>;
  /** The same pipeline as events, for SSE: retrieved, then delta/citation (with a generator), then answer. */
  askStream(question: string, options?: QueryOptions): AsyncGenerator<AskEvent>;
  resolveCitation(ref: CitationRef): Promise<ResolvedCitation>;
  listDocuments(collectionId?: string): Promise<DocumentSummary[]>;
  getDocument(documentId: string): Promise<DocumentSummary>;
  /** An editor's correction of the document's identity (null removes it), kept across re-processing. */
  correctIdentity(documentId: string, correction: IdentityCorrection | null): Promise<DocumentSummary>;
  /** Removes a document with all its versions, index entries, artifacts and unshared blobs. */
  deleteDocument(documentId: string): Promise<{ document_id: string; versions_deleted: number }>;
  getVersion(versionId: string): Promise<VersionDetail>;
  /** A version's elements in reading order (PP_NOT_FOUND when the version does not exist). */
  getElements(versionId: string): Promise<Element[]>;
  readonly jobs: EngineJobs;
  /** An artifact's bytes, checked against its sha256 (409 PP_ARTIFACT_HASH_MISMATCH otherwise). */
  readArtifact(versionId: string, kind: ArtifactKind, name?: string): ReturnType<typeof readArtifact>;
  /** Everything that shapes ingestion and answers, defaults filled in. */
  settings(): Record<string, unknown>;
  /**
   * Brings every version in line with its job (what a killed process or a failed sync left); runs at
   * every start, and resolves with the versions it changed.
   */
  reconcile(): Promise<string[]>;
  /** Stops the worker loop and closes every port. */
  close(): Promise<void>;
}

/** The one place the pipeline lives; the API, the CLI, the eval and the workers all go through it. */
export function createEngine(config: EngineConfig, ports: EnginePorts, options: { log?: EngineLog } = {}): Engine {
  const log = options.log ?? stderrLog;
  const processor = createIngestProcessor(ports, config);
  const runners: JobRunner[] = [];
  const following = followJobs(ports, log);
  const reconcile = async (): Promise<string[]> => {
    const changed = await reconcileVersions(ports);
    if (changed.length > 0) log('versions-reconciled', { version_ids: changed });
    return changed;
  };
  const started = reconcile().catch((err: unknown) => {
    const e = toPinpointError(err);
    log('versions-reconcile-failed', { code: e.code, message: e.message });
  });
  return {
    config,
    ports,
    listCollections: () => ports.metadata.listCollections(),
    createCollection: (name) => ports.metadata.createCollection(name),
    ensureCollection: async (name) => {
      const found = (await ports.metadata.listCollections()).find((c) => c.name === name);
      return found ?? ports.metadata.createCollection(name);
    },
    upload: (collectionId, files) => upload(ports, config, collectionId, files),
    checkUploadSpace: () => refuseUploadsWhenLow(ports.dataDir, config.minFreeBytes),
    reprocess: (versionId) => reprocess(ports, config, versionId),
    process: processor,
    startWorker: (options) => {
      const runner = ports.queue.start(processor, options);
      runners.push(runner);
      return runner;
    },
    waitForVersions: (ids, options) => waitForVersions(ports, ids, options),
    search: (query, options) => search(ports, config, query, options),
    ask: (question, options) => ask(ports, config, question, options),
    askStream: (question, options) => askStream(ports, config, question, options),
    resolveCitation: (ref) => resolveCitation(ports, ref),
    listDocuments: (collectionId) => listDocuments(ports, collectionId),
    getDocument: (documentId) => getDocument(ports, documentId),
    correctIdentity: (documentId, correction) => correctIdentity(ports, documentId, correction),
    deleteDocument: (documentId) => deleteDocument(ports, documentId),
    getVersion: (versionId) => getVersionDetail(ports, versionId),
    getElements: async (versionId) => {
      await getVersionDetail(ports, versionId);
      return ports.metadata.getElements(versionId);
    },
    jobs: {
      list: (filter) => ports.queue.list(filter),
      get: (jobId) => ports.queue.get(jobId),
      cancel: (jobId) => ports.queue.cancel(jobId),
      retry: (jobId) => ports.queue.retry(jobId),
      subscribe: (listener) => ports.queue.subscribe(listener),
    },
    readArtifact: (versionId, kind, name) => {
      if (!versionId) throw createError('PP_VALIDATION', 'versionId is required.');
      return readArtifact(ports, versionId, kind, name);
    },
    settings: () => effectiveSettings(config, ports),
    reconcile,
    close: async () => {
      await Promise.all(runners.map((r) => r.stop()));
      await started;
      await following.stop();
      await ports.queue.close();
      await ports.lexical.close();
      await ports.vectors?.close();
      await ports.blobs.close();
      await ports.metadata.close();
    },
  };
}
