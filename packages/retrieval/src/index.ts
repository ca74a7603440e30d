export type { Bm25Params } from './bm25.js';
export { DEFAULT_BM25, defaultTermWeight } from './bm25.js';
export type { IndexInspection } from './inspect.js';
export { inspectLexicalFile } from './inspect.js';
export type { SearchHit, SearchResult, StageScore } from './search.js';
export { searchLexical } from './search.js';
export type { LexicalIndexOptions } from './sqlite-index.js';
export { openLexicalIndex, SqliteLexicalIndex } from './sqlite-index.js';
