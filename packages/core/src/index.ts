export type {
  AccessStore,
  ApiToken,
  AuditEntry,
  Membership,
  NewAuditEntry,
  NewUser,
  Principal,
  Role,
  User,
} from './access.js';
export { LOCAL_PRINCIPAL, membershipSchema, ROLE_RANK, roleSchema } from './access.js';
export type { Anchor, AnchorKind, Box, PageAnchor, Precision, RecordAnchor, Rotation, TextAnchor } from './anchors.js';
export {
  anchorSchema,
  boxSchema,
  pageAnchorSchema,
  precisionSchema,
  recordAnchorSchema,
  rotationSchema,
  textAnchorSchema,
} from './anchors.js';
export type {
  CitationView,
  DocumentSummary,
  PageView,
  RecordView,
  ResolvedCitation,
  Retrieved,
  StageName,
  StageNumbers,
  TextView,
  UploadResult,
  VersionDetail,
} from './api-types.js';
export { CodepointIndex, codepointLength, sliceCodepoints } from './codepoints.js';
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
export type { ErrorCode } from './errors.js';
export { createError, errorCodes, isErrorCode, PinpointError, toPinpointError } from './errors.js';
export type { CalibratedSet, GateFile } from './gate-file.js';
export { GATE_FILE_SCHEMA, gateFileSchema } from './gate-file.js';
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
  RerankCandidate,
  Reranker,
  SearchFilter,
  VectorRecord,
  VectorStore,
  VersionPatch,
} from './ports.js';
export type {
  DerivedArtifact,
  OcrEngine,
  OcrLine,
  OcrWord,
  OfficeConverter,
  PageRasterizer,
  ParseContext,
  ParseOutput,
  RecordEntry,
  SourceMap,
} from './sourcemap.js';
export {
  readSourceMap,
  recordEntrySchema,
  SOURCE_MAP_SCHEMA_VERSION,
  sourceMapMigrations,
  sourceMapSchema,
} from './sourcemap.js';
