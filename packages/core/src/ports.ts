import type { DocumentIdentity, IdentityCorrection } from './document-identity.js';
import type {
  Artifact,
  Chunk,
  Collection,
  Diagnostic,
  Element,
  Job,
  JobStage,
  JobState,
  PinDocument,
  Recipe,
  Version,
  VersionState,
} from './domain.js';
import type { PinpointError } from './errors.js';

/**
 * Ports (../DESIGN.md §1). Every adapter — in-process or real-server — passes its port's
 * conformance suite. Callers only ever see these interfaces.
 */

export interface BlobStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Stores a file's content without holding it whole in memory (optional: callers fall back to put). */
  putFile?(key: string, path: string): Promise<void>;
  get(key: string): Promise<Uint8Array>;
  has(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface VersionPatch {
  state?: VersionState;
  error_code?: string | null;
  error_message?: string | null;
  diagnostics?: Diagnostic[];
  stats?: Version['stats'];
  format?: Version['format'];
  sniffed_mime?: string | null;
  recipe?: Recipe;
  /** What the version is about and when, as read at ingest (DESIGN.md §3 "Identity"). */
  identity?: DocumentIdentity;
}

export interface NewVersion {
  document_id: string;
  collection_id: string;
  source_sha256: string;
  original_name: string;
  declared_mime: string | null;
  size: number;
  recipe: Recipe;
  /** Reprocessing: always create a new version (same bytes), never dedupe. Names the version it re-runs. */
  reprocess_of?: string;
}

export interface MetadataStore {
  createCollection(name: string): Promise<Collection>;
  getCollection(collectionId: string): Promise<Collection | null>;
  listCollections(): Promise<Collection[]>;

  /** Same collection + name = the same document. */
  findOrCreateDocument(collectionId: string, name: string): Promise<PinDocument>;
  getDocument(documentId: string): Promise<PinDocument | null>;
  listDocuments(collectionId?: string): Promise<PinDocument[]>;
  /** An editor's correction of the document's identity (null removes it); every version inherits it. */
  setIdentityCorrection(documentId: string, correction: IdentityCorrection | null): Promise<PinDocument>;

  /**
   * Creates the next version of the document unless one with the same source_sha256 exists,
   * in which case that one is returned with created=false. Atomic.
   */
  createVersion(input: NewVersion): Promise<{ version: Version; created: boolean }>;
  getVersion(versionId: string): Promise<Version | null>;
  listVersions(filter?: { documentId?: string; collectionId?: string; state?: VersionState }): Promise<Version[]>;
  updateVersion(versionId: string, patch: VersionPatch): Promise<Version>;
  /** The newest ready version of each document (what search sees by default). */
  latestReadyVersionIds(collectionId?: string): Promise<string[]>;

  putArtifact(artifact: Artifact): Promise<void>;
  listArtifacts(versionId: string): Promise<Artifact[]>;
  getArtifact(versionId: string, kind: Artifact['kind'], name?: string): Promise<Artifact | null>;

  /** Replaces all elements and chunks of the version in one transaction (idempotent re-runs). */
  replaceVersionContent(versionId: string, elements: Element[], chunks: Chunk[]): Promise<void>;
  deleteVersionContent(versionId: string): Promise<void>;
  getElements(versionId: string, elementIds?: string[]): Promise<Element[]>;
  /**
   * Removes the document with every version, artifact record, element and chunk, in one transaction.
   * Returns the removed version ids and the blob keys no artifact refers to any more (the caller
   * deletes those blobs); null when no such document.
   */
  deleteDocument(documentId: string): Promise<{ version_ids: string[]; orphan_blob_keys: string[] } | null>;
  getChunks(chunkIds: string[]): Promise<Chunk[]>;
  listChunks(versionId: string): Promise<Chunk[]>;

  close(): Promise<void>;
}

export interface JobProgress {
  stage: JobStage;
  /** 0..100 */
  percent: number;
}

export interface JobContext {
  /** Aborted when the job is cancelled or the worker shuts down. */
  signal: AbortSignal;
  attempt: number;
  progress(p: JobProgress): Promise<void>;
}

/** The processor throws a PinpointError; its `retryable` decides retry vs. fail now. */
export type JobProcessor = (job: Job, ctx: JobContext) => Promise<void>;

export interface JobFilter {
  state?: JobState;
  collectionId?: string;
  versionId?: string;
  limit?: number;
}

export interface NewJob {
  version_id: string;
  document_id: string;
  collection_id: string;
  file: string;
  /** Same version + recipe key = same job id; enqueueing it again is a no-op while it is live. */
  recipe_key: string;
}

export interface JobQueue {
  enqueue(job: NewJob): Promise<Job>;
  get(jobId: string): Promise<Job | null>;
  list(filter?: JobFilter): Promise<Job[]>;
  /** Cancels a queued or running job: a running one sees ctx.signal abort. */
  cancel(jobId: string): Promise<Job>;
  /** Re-queues a failed or cancelled job. */
  retry(jobId: string): Promise<Job>;
  /** Starts consuming with the processor; returns a handle that drains on stop(). */
  start(processor: JobProcessor, options?: { concurrency?: number }): JobRunner;
  /** Subscribe to job changes (state/stage/progress); returns an unsubscribe function. */
  subscribe(listener: (job: Job) => void): () => void;
  close(): Promise<void>;
}

export interface JobRunner {
  /** Stops taking jobs; waits for the running ones to finish or be released. */
  stop(): Promise<void>;
  /**
   * What keeps the runner from claiming or settling jobs right now (a full disk refusing its writes),
   * null while it works; the jobs wait, queued, and run once the writes go through again.
   */
  stalledBy?(): PinpointError | null;
}

export interface SearchFilter {
  collectionIds?: string[];
  documentIds?: string[];
  versionIds?: string[];
  pageIndexes?: number[];
}

export interface IndexedChunk {
  chunk_id: string;
  version_id: string;
  document_id: string;
  collection_id: string;
  page_index?: number;
  retrieval_text: string;
}

export interface LexicalHit {
  chunk_id: string;
  score: number;
}

/** An analysed query term and its weight: the term kind's weight × its BM25 IDF in the index (0 when absent). */
export interface QueryTerm {
  term: string;
  weight: number;
}

export interface LexicalIndex {
  readonly id: string;
  upsert(chunks: IndexedChunk[]): Promise<void>;
  deleteVersion(versionId: string): Promise<void>;
  /**
   * BM25 over the filter's chunks. N, the average length and each term's document frequency count
   * only the live chunks of the filter's collections (all collections without `collectionIds`), so a
   * collection the caller cannot read never moves a score.
   */
  search(query: string, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]>;
  /**
   * The query's distinct analysed terms in first-seen order with their weights (what the refusal
   * gate reads), from the same statistics as `search` with the same filter.
   */
  queryTerms(query: string, options?: { filter?: SearchFilter }): Promise<QueryTerm[]>;
  close(): Promise<void>;
}

export interface VectorRecord {
  chunk_id: string;
  version_id: string;
  document_id: string;
  collection_id: string;
  page_index?: number;
  vector: Float32Array;
}

export interface VectorStore {
  readonly id: string;
  upsert(records: VectorRecord[]): Promise<void>;
  deleteVersion(versionId: string): Promise<void>;
  search(vector: Float32Array, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]>;
  close(): Promise<void>;
}

export interface Embedder {
  /** Model id; part of the recipe, so changing it forces a re-embed. */
  readonly id: string;
  readonly dimensions: number;
  embedDocuments(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array>;
}

export interface RerankCandidate {
  chunk_id: string;
  text: string;
}

export interface Reranker {
  readonly id: string;
  rerank(query: string, candidates: RerankCandidate[], signal?: AbortSignal): Promise<{ chunk_id: string; score: number }[]>;
}

export interface GenerationSource {
  n: number;
  file: string;
  page_label?: string;
  text: string;
  /** The text is a table as a grid: a row number on each line, a column letter on each header; cells are cited as [n:C4]. */
  table?: boolean;
}

export interface Generator {
  readonly id: string;
  /** Streams text deltas of an answer that cites sources as [n]. */
  generate(
    input: { question: string; sources: GenerationSource[]; language: string },
    signal?: AbortSignal,
  ): AsyncIterable<string>;
  /** Free-form completion (query rewriting, decomposition). */
  complete(prompt: string, signal?: AbortSignal): Promise<string>;
}
