import { normalizeForMatch } from './relevance.js';

/** What answer_contains needs of a question: its expected answers and what the engine said. */
export interface AnsweredQuestion {
  answerable: boolean;
  refused: boolean;
  answer: string;
  /** Expected answer strings (DESIGN.md §6 `answers`). */
  answers: string[];
}

/**
 * Share of the answered answerable questions whose answer text holds one of the expected answer
 * strings (both normalised as the relevance rule does: NFKC, whitespace removed, lower case).
 * Questions without expected strings are left out; 0 when none is left.
 */
export function answerContains(questions: AnsweredQuestion[]): number {
  const judged = questions.filter((q) => q.answerable && !q.refused && q.answers.length > 0);
  if (judged.length === 0) return 0;
  const hits = judged.filter((q) => {
    const text = normalizeForMatch(q.answer);
    return q.answers.some((a) => normalizeForMatch(a).length > 0 && text.includes(normalizeForMatch(a)));
  }).length;
  return Math.round((hits / judged.length) * 10000) / 10000;
}
