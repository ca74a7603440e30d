export type { ChunkOptions } from './chunk.js';
export { CHUNKER_ID, chunkElements, chunkSetId, DEFAULT_CHUNK_OPTIONS } from './chunk.js';
