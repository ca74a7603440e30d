export {
  anchorSchema,
  boxSchema,
  pageAnchorSchema,
  precisionSchema,
  recordAnchorSchema,
  rotationSchema,
  textAnchorSchema,
} from './anchors.js';
export type { Anchor, AnchorKind, Box, PageAnchor, Precision, RecordAnchor, Rotation, TextAnchor } from './anchors.js';
export { CodepointIndex, codepointLength, sliceCodepoints } from './codepoints.js';
export {
  artifactKindSchema,
  artifactSchema,
  chunkSchema,
  citationSchema,
  collectionSchema,
  diagnosticSchema,
  documentSchema,
  elementSchema,
  formatSchema,
  jobSchema,
  pageInfoSchema,
  recipeSchema,
  versionSchema,
} from './domain.js';
export type {
  Artifact,
  ArtifactKind,
  Chunk,
  ChunkElementRef,
  Citation,
  Collection,
  Diagnostic,
  Element,
  ElementType,
  Format,
  Job,
  JobStage,
  JobState,
  PageInfo,
  PinDocument,
  Recipe,
  TextSpan,
  Version,
  VersionState,
} from './domain.js';
export { createError, errorCodes, isErrorCode, PinpointError, toPinpointError } from './errors.js';
export type { ErrorCode } from './errors.js';
export { chunkId, elementId, jobIdFor, newId, sha256Hex } from './ids.js';
export type {
  BlobStore,
  Embedder,
  GenerationSource,
  Generator,
  IndexedChunk,
  JobContext,
  JobFilter,
  JobProcessor,
  JobProgress,
  JobQueue,
  JobRunner,
  LexicalHit,
  LexicalIndex,
  MetadataStore,
  NewJob,
  NewVersion,
  Reranker,
  RerankCandidate,
  SearchFilter,
  VectorRecord,
  VectorStore,
  VersionPatch,
} from './ports.js';
export { readSourceMap, recordEntrySchema, SOURCE_MAP_SCHEMA_VERSION, sourceMapMigrations, sourceMapSchema } from './sourcemap.js';
export type { DerivedArtifact, OcrEngine, OcrLine, OcrWord, OfficeConverter, ParseContext, ParseOutput, RecordEntry, SourceMap } from './sourcemap.js';
