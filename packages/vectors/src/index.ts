export type { EmbeddedVectorStoreOptions } from './embedded-store.js';
export { DEFAULT_ANN_THRESHOLD, openEmbeddedVectorStore } from './embedded-store.js';
export type { VectorStoreConfig } from './factory.js';
export { collectionNameFor, createVectorStore } from './factory.js';
export type { HybridVectorRecord, QdrantVectorStoreOptions } from './qdrant-store.js';
export { QdrantVectorStore } from './qdrant-store.js';
export type { SparseVector } from './sparse.js';
export { documentSparse, querySparse, termId } from './sparse.js';
