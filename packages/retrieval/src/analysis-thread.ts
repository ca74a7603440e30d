import { serveThread } from '@pinpoint/threads';
import { termCountHandlers } from './term-counts.js';

/** The lexical index's analyzer (segmentation, folding, stems, pairs) for upserts, in a thread of its own. */
serveThread(() => termCountHandlers());
