import type { FeedbackVerdict } from '../../api/types.js';

/** The three verdicts on an answer, in the order the SPA offers them (worded by `verdict.<verdict>`). */
export const VERDICTS: readonly FeedbackVerdict[] = ['helpful', 'wrong_citation', 'should_have_refused'];
