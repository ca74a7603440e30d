import { serveThread } from '@pinpoint/threads';
import { openVectorIndex, type VectorIndexInit, vectorIndexHandlers } from './vector-index-host.js';

/** The embedded store's index past its threshold, in a thread of its own (HNSW inserts take a core). */
serveThread((init: VectorIndexInit, notify) => vectorIndexHandlers(openVectorIndex(init, notify)));
