export { blobKeyFor } from './artifacts.js';
export type { DocumentSummary, VersionDetail } from './catalog.js';
export type { CitationRef, PageView, RecordView, ResolvedCitation, TextView } from './citations.js';
export type { EngineConfig, EnginePorts } from './config.js';
export { defaultEngineConfig } from './config.js';
export type { Engine } from './engine.js';
export { createEngine } from './engine.js';
export type { Answer, AskEvent, QueryFilters, QueryOptions, Retrieved, SearchResponse, StageNumbers } from './query.js';
export type { UploadFile, UploadResult } from './upload.js';
