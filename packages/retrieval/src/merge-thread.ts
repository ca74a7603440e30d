import { serveThread } from '@pinpoint/threads';
import { mergeHandlers } from './merge.js';

/** The lexical index's merge reads and re-encoding, in a thread of its own (merge.ts). */
serveThread((init: { path: string }) => mergeHandlers(init.path));
