/** Retrieval, refusal and latency metrics of one run (DESIGN.md §6). */
export interface ScoredQuestion {
  answerable: boolean;
  refused: boolean;
  /** Relevance of the retrieved list in rank order (top 10 used). */
  relevant: boolean[];
  latency_ms: number;
}

export interface Metrics {
  'hit@1': number;
  'hit@3': number;
  'hit@5': number;
  'hit@10': number;
  'mrr@10': number;
  'ndcg@10': number;
  refusal_precision: number;
  refusal_recall: number;
  answerable_recall: number;
  balanced_accuracy: number;
  latency_ms: { p50: number; p95: number };
}

const round = (x: number): number => Math.round(x * 10000) / 10000;
const ratio = (a: number, b: number): number => (b === 0 ? 0 : round(a / b));

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[idx] as number) * 100) / 100;
}

/** Binary-relevance nDCG@10; the ideal list puts the relevant chunks found in the top 10 first. */
function ndcg(relevant: boolean[]): number {
  const top = relevant.slice(0, 10);
  let dcg = 0;
  top.forEach((r, i) => {
    if (r) dcg += 1 / Math.log2(i + 2);
  });
  const count = top.filter(Boolean).length;
  let ideal = 0;
  for (let i = 0; i < count; i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function computeMetrics(questions: ScoredQuestion[]): Metrics {
  const answerable = questions.filter((q) => q.answerable);
  const first = answerable.map((q) => q.relevant.slice(0, 10).indexOf(true));
  const hit = (k: number): number => ratio(first.filter((r) => r >= 0 && r < k).length, answerable.length);
  const mrr = first.reduce((s, r) => s + (r >= 0 ? 1 / (r + 1) : 0), 0);
  const refused = questions.filter((q) => q.refused);
  const unanswerable = questions.filter((q) => !q.answerable);
  const refusalRecall = ratio(unanswerable.filter((q) => q.refused).length, unanswerable.length);
  const answerableRecall = ratio(answerable.filter((q) => !q.refused).length, answerable.length);
  const latencies = questions.map((q) => q.latency_ms);
  return {
    'hit@1': hit(1),
    'hit@3': hit(3),
    'hit@5': hit(5),
    'hit@10': hit(10),
    'mrr@10': ratio(mrr, answerable.length),
    'ndcg@10': ratio(
      answerable.reduce((s, q) => s + ndcg(q.relevant), 0),
      answerable.length,
    ),
    refusal_precision: ratio(refused.filter((q) => !q.answerable).length, refused.length),
    refusal_recall: refusalRecall,
    answerable_recall: answerableRecall,
    balanced_accuracy: round((refusalRecall + answerableRecall) / 2),
    latency_ms: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
  };
}
