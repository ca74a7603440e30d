import type { FeedbackVerdict } from '../../api/types.js';

/** The three verdicts on an answer, in the words the SPA shows. */
export const VERDICTS: readonly { verdict: FeedbackVerdict; label: string }[] = [
  { verdict: 'helpful', label: 'Helpful' },
  { verdict: 'wrong_citation', label: 'Wrong citation' },
  { verdict: 'should_have_refused', label: 'Should have refused' },
];

export const verdictLabel = (verdict: FeedbackVerdict): string => VERDICTS.find((v) => v.verdict === verdict)?.label ?? verdict;
