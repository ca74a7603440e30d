/**
 * The naive refusal baseline: refuse when the best retrieval score is below a threshold, the
 * threshold tuned on the run itself so that at least 90% of answerable questions are answered.
 */
export interface NaiveRefusal {
  threshold: number;
  balanced_accuracy: number;
  answerable_recall: number;
  refusal_recall: number;
}

interface Scorable {
  answerable: boolean;
  retrieved: { scores: Record<string, number> }[];
}

const topScore = (q: Scorable): number => {
  const s = q.retrieved[0]?.scores;
  return s ? (s.fused ?? s.lexical ?? Object.values(s)[0] ?? 0) : 0;
};

export function naiveRefusal(questions: Scorable[], minAnswered = 0.9): NaiveRefusal {
  const answerable = questions.filter((q) => q.answerable).map(topScore);
  const unanswerable = questions.filter((q) => !q.answerable).map(topScore);
  let best: NaiveRefusal = { threshold: 0, balanced_accuracy: 0.5, answerable_recall: 1, refusal_recall: 0 };
  for (const t of [...new Set([...answerable, ...unanswerable])].sort((a, b) => a - b)) {
    const ar = answerable.length ? answerable.filter((s) => s >= t).length / answerable.length : 1;
    const rr = unanswerable.length ? unanswerable.filter((s) => s < t).length / unanswerable.length : 0;
    if (ar < minAnswered) break;
    const ba = (ar + rr) / 2;
    if (ba > best.balanced_accuracy)
      best = { threshold: t, balanced_accuracy: Math.round(ba * 10000) / 10000, answerable_recall: ar, refusal_recall: rr };
  }
  return best;
}
