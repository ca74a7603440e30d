import { benchSections } from './bench-sections.js';
import { type Column, metric, type Section } from './page.js';
import type { ResultFile } from './record.js';

type Result = ResultFile & { path: string };

const has = (path: string) => (r: Result) => metric(path)(r) !== undefined;

/** The best peer's figure for the same set, where `results/peer/<set>.json` holds one. */
const peer =
  (path: string): Column['value'] =>
  (r, all) => {
    const p = all.find((x) => x.area === 'peer' && x.name === r.name);
    return p ? metric(path)(p) : undefined;
  };

/** The number an answer states against the gold number (`pinpoint eval`'s numeric metrics, score_numeric.py's rule). */
const numericColumns: Column[] = [
  { label: 'numeric acc.', value: metric('numeric.accuracy'), format: 'ratio' },
  { label: 'numeric prec.', value: metric('numeric.precision'), format: 'ratio' },
];

const evalCommon: Column[] = [
  { label: 'answered', value: metric('answerable_recall'), format: 'ratio' },
  { label: 'refusal bal. acc.', value: metric('balanced_accuracy'), format: 'ratio' },
  { label: 'naive threshold', value: metric('naive_refusal.balanced_accuracy'), format: 'ratio' },
];

/** The page's tables, in page order. Areas without one get a generic table after these. */
export const sections: Section[] = [
  {
    area: 'eval',
    title: 'Reports: the right document and page',
    intro:
      '`pnpm pinpoint eval ../shared/eval/<set> --record` on the zero-key default (lexical retrieval, extractive answers, the refusal gate). doc@1: the right document first; page Hit@5: the evidence page in the first five; MRR@10 by page (DESIGN.md §6 relevance).',
    // a shelf of reports: every question answerable, judged by the document and page it finds
    accepts: (r) => has('doc@1')(r) && metric('answerable')(r) === metric('questions')(r),
    columns: [
      { label: 'questions', value: metric('questions'), format: 'int' },
      { label: 'doc@1', value: metric('doc@1'), format: 'ratio' },
      { label: 'page Hit@5', value: metric('page_hit@5'), format: 'ratio' },
      { label: 'MRR@10', value: metric('mrr@10'), format: 'ratio' },
      { label: 'answered', value: metric('answerable_recall'), format: 'ratio' },
      ...numericColumns,
      { label: 'metrics-generated acc.', value: metric('numeric.by_kind.metrics-generated.accuracy'), format: 'ratio' },
      { label: 'p95 ms', value: metric('latency_ms.p95'), format: 'ms' },
    ],
  },
  {
    area: 'eval',
    title: 'Table questions',
    intro:
      "`pnpm pinpoint eval ../shared/eval/<set> --record`, zero keys. cell@1: the answer's first citation pinpoints exactly one gold cell; answered: share of answerable questions answered; refusal balanced accuracy beside the naive best-score threshold tuned on the same run; table stage p95: the table reader alone; numeric acc. / prec.: the number the answer states equals the gold number, over numeric questions / over those answered (score_numeric.py's rule).",
    accepts: has('cell@1'),
    columns: [
      { label: 'questions', value: metric('questions'), format: 'int' },
      { label: 'cell@1', value: metric('cell@1'), format: 'ratio' },
      { label: 'MRR@10', value: metric('mrr@10'), format: 'ratio' },
      ...evalCommon,
      { label: 'answer contains', value: metric('answer_contains'), format: 'ratio' },
      ...numericColumns,
      { label: 'table stage p95 ms', value: metric('latency_stages_ms.table.p95'), format: 'ms' },
    ],
  },
  {
    area: 'eval',
    title: 'Retrieval and refusal',
    intro:
      '`pnpm pinpoint eval ../shared/eval/<set> --record` on the zero-key default (lexical retrieval, extractive answers with the refusal gate); the off-topic rows add `--offtopic-from ../shared/eval/<other>`. MRR@10 and Hit@5 on answerable questions; answered: share of answerable questions answered; refusal balanced accuracy over all questions, beside the naive best-score threshold tuned on the same run. Best peer: the best JavaScript search library on the same chunks and relevance rule (`results/peer/`), where measured.',
    columns: [
      { label: 'lang', value: metric('language'), format: 'text' },
      { label: 'questions', value: metric('questions'), format: 'int' },
      { label: 'MRR@10', value: metric('mrr@10'), format: 'ratio' },
      { label: 'Hit@5', value: metric('hit@5'), format: 'ratio' },
      ...evalCommon,
      { label: 'answer contains', value: metric('answer_contains'), format: 'ratio' },
      { label: 'p95 ms', value: metric('latency_ms.p95'), format: 'ms' },
      { label: 'best peer MRR@10', value: peer('mrr@10'), format: 'ratio' },
      { label: 'peer', value: peer('library'), format: 'text' },
    ],
  },
  ...benchSections,
];
