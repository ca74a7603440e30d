import type { EvalRun } from './run.js';

const f3 = (x: number): string => x.toFixed(3);

/** The metrics of a run as a fixed-width text table. */
export function formatMetricsTable(run: EvalRun): string {
  const m = run.metrics;
  const rows: [string, string][] = [
    ['dataset', run.dataset.path],
    ['questions', String(run.questions.length)],
    ['hit@1 / @3 / @5 / @10', [m['hit@1'], m['hit@3'], m['hit@5'], m['hit@10']].map(f3).join(' / ')],
    ['mrr@10', f3(m['mrr@10'])],
    ['ndcg@10', f3(m['ndcg@10'])],
    ['refusal precision / recall', `${f3(m.refusal_precision)} / ${f3(m.refusal_recall)}`],
    ['answerable recall', f3(m.answerable_recall)],
    ['balanced accuracy', f3(m.balanced_accuracy)],
    ...(m['cell@1'] !== undefined
      ? ([
          ['cell@1', f3(m['cell@1'])],
          ['header row cited first', f3(m.header_cited_first ?? 0)],
        ] as [string, string][])
      : []),
    ...(m['doc@1'] !== undefined
      ? ([
          ['doc@1', f3(m['doc@1'])],
          ['page hit@5 / page mrr@10', `${f3(m['page_hit@5'] ?? 0)} / ${f3(m['page_mrr@10'] ?? 0)}`],
          ['answered (answerable)', f3(m.answered ?? 0)],
        ] as [string, string][])
      : []),
    ['naive refusal (best-score threshold)', `balanced accuracy ${f3(m.naive_refusal.balanced_accuracy)}`],
    ['answer_contains (of answered)', f3(m.answer_contains)],
    ['latency p50 / p95 (ms)', `${m.latency_ms.p50} / ${m.latency_ms.p95}`],
    ...Object.entries(m.latency_stages_ms).map(([stage, l]): [string, string] => [
      `  ${stage} p50 / p95 (ms)`,
      `${l.p50} / ${l.p95}`,
    ]),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}
