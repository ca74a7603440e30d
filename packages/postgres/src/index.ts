export { PgAccessStore } from './pg-access-store.js';
export type { PgLexicalIndexOptions } from './pg-lexical-index.js';
export { PgLexicalIndex } from './pg-lexical-index.js';
export type { PgMetadataStoreOptions } from './pg-metadata-store.js';
export { PgMetadataStore } from './pg-metadata-store.js';
export { dropSchema, setAutovacuum, tableSizes } from './schema.js';
