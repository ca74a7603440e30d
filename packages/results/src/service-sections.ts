import { metric, type Section } from './page.js';

/** Tables of the service as a whole: hostile input, the MCP layer, distributed ingestion. */
export const serviceSections: Section[] = [
  {
    area: 'fuzz',
    title: 'Hostile input',
    intro:
      "`pnpm fuzz --count N --record`: deterministic mutants (bit flips, truncation, duplicated and inserted bytes, invalid UTF-8, NULs, deep nesting, decompression bombs, one-line files, damaged zip entries) of the smallest corpus files of every format, through format detection and the isolated parse process with its time and memory limits, OCR and LibreOffice on. Flagged: a crash, a timeout, more than 10 s of parse CPU, or a message carrying raw library text. Wall time includes OCR, LibreOffice and the machine's load; parse CPU and memory growth are the parse process's own.",
    columns: [
      { label: 'mutants', value: metric('mutants'), format: 'int' },
      { label: 'flagged', value: metric('flagged'), format: 'int' },
      { label: 'ready', value: metric('ready'), format: 'int' },
      { label: 'failed with a code', value: metric('failed'), format: 'int' },
      { label: 'wall p50 s', value: metric('wall_p50_s'), format: 'seconds' },
      { label: 'most parse CPU s', value: metric('max_parse_cpu_s'), format: 'seconds' },
      { label: 'most memory growth MB', value: metric('max_parse_growth_mb'), format: 'int' },
      {
        label: 'codes',
        value: (r) =>
          Object.entries((r.metrics.codes as Record<string, number>) ?? {})
            .sort((a, b) => b[1] - a[1])
            .map(([c, n]) => `${c} ${n}`)
            .join(', '),
        format: 'text',
      },
    ],
  },
  {
    area: 'mcp',
    title: 'Agents (MCP)',
    intro:
      '`pnpm --filter @pinpoint/api mcp-latency -- --record`: the same question 40 times (after 5 warm-up calls) through `POST /api/ask` and through the MCP tools over Streamable HTTP at `/mcp`, on a real server on loopback with two jsquad-dev files, lexical default.',
    columns: [
      {
        label: 'API ask p50 / p95 ms',
        value: (r) => `${metric('api_ask_p50_ms')(r)} / ${metric('api_ask_p95_ms')(r)}`,
        format: 'text',
      },
      {
        label: 'MCP ask p50 / p95 ms',
        value: (r) => `${metric('mcp_ask_p50_ms')(r)} / ${metric('mcp_ask_p95_ms')(r)}`,
        format: 'text',
      },
      {
        label: 'MCP search p50 / p95 ms',
        value: (r) => `${metric('mcp_search_p50_ms')(r)} / ${metric('mcp_search_p95_ms')(r)}`,
        format: 'text',
      },
    ],
  },
  {
    area: 'distributed',
    title: 'Distributed ingestion',
    intro:
      '`pnpm bench:distributed --workers 1,2 --record`: N worker processes on one BullMQ queue (the local Redis), PostgreSQL metadata and lexical index, over the squad2-dev and jsquad-dev documents; workers idle before the clock starts, which stops when every version is ready or failed.',
    columns: [
      { label: 'workers', value: metric('workers'), format: 'int' },
      { label: 'documents', value: metric('docs'), format: 'int' },
      { label: 'MB', value: metric('megabytes') },
      { label: 'chunks', value: metric('chunks'), format: 'int' },
      { label: 'seconds', value: metric('seconds'), format: 'seconds' },
      { label: 'docs/min', value: metric('docsPerMinute') },
      { label: 'job p50 / p95 ms', value: (r) => `${metric('jobP50Ms')(r)} / ${metric('jobP95Ms')(r)}`, format: 'text' },
      { label: 'failed', value: metric('failed'), format: 'int' },
    ],
  },
  {
    area: 'faults',
    title: 'Crashes: SIGKILL at any moment',
    intro:
      '`pnpm bench --faults N --record`: N seeded trials, each a real server process on 127.0.0.1 (every tenth a `pinpoint backup` instead) killed with SIGKILL at a random moment of a mixed ingestion (PDF, DOCX, XLSX, a scan) with questions asked between, then restarted and checked: originals against their hashes, the indexes against the ready versions, every job settled, and the answers against a clean ingest of the same files.',
    columns: [
      { label: 'trials', value: metric('trials'), format: 'int' },
      {
        label: 'server / backup kills',
        value: (r) => `${metric('server_kills')(r)} / ${metric('backup_kills')(r)}`,
        format: 'text',
      },
      { label: 'originals lost', value: metric('originals_lost'), format: 'int' },
      { label: 'orphan or missing chunks', value: metric('orphan_or_missing_chunks'), format: 'int' },
      { label: 'jobs stuck', value: metric('jobs_stuck'), format: 'int' },
      { label: 'answers unlike a clean ingest', value: metric('answers_differing'), format: 'int' },
      { label: 'uploads re-sent after a kill', value: metric('uploads_refused_by_kill'), format: 'int' },
    ],
  },
  {
    area: 'backup',
    title: 'Online backup and restore',
    intro:
      "`pnpm bench --backup [--backup-docs N] --record`: the real server holds the financebench-dev filings (or the first N), 10 askers ask over HTTP; their p95 without a backup and while `pinpoint backup` runs, the backup's time and size, the restore's time, and whether the restored folder answers the same questions with the same citations.",
    columns: [
      { label: 'documents', value: metric('documents'), format: 'int' },
      { label: 'pages', value: metric('pages'), format: 'int' },
      { label: 'backup s', value: metric('backup_s'), format: 'seconds' },
      { label: 'size MB', value: metric('backup_mb') },
      { label: 'askers', value: metric('askers'), format: 'int' },
      {
        label: 'ask p95 ms without / during',
        value: (r) => `${metric('p95_without_ms')(r)} / ${metric('p95_during_ms')(r)}`,
        format: 'text',
      },
      { label: 'restore s', value: metric('restore_s'), format: 'seconds' },
      {
        label: 'answers identical',
        value: (r) => `${metric('answers_identical')(r)} of ${metric('answers_compared')(r)}`,
        format: 'text',
      },
    ],
  },
  {
    area: 'pdf-tables',
    title: 'Tables on PDF pages',
    intro:
      "`pnpm bench --pdf-tables --record`: every PDF of `../shared/eval/pdf-tables-dev` (docling's ground truth, and pages without tables) and `../shared/eval/pdf-tables-tabula` (tabula-java's test suite) through the table reader with no hints (a user never gives the area or the columns), scored by `../shared/tools/score_pdf_tables.py`; tabula's cases that gave tabula an area or column hint are scored apart. The parse-cost row: the parse CPU and heap per page of the same PDFs without and with table detection, paired runs.",
    accepts: (r) => r.name !== 'parse-cost',
    columns: [
      { label: 'tables', value: metric('tables'), format: 'int' },
      { label: 'cell F1', value: metric('cell_f1'), format: 'ratio' },
      { label: 'row F1', value: metric('row_f1'), format: 'ratio' },
      { label: 'exact grid', value: metric('exact'), format: 'ratio' },
      { label: 'bbox@0.5', value: metric('bbox_at_05'), format: 'ratio' },
      { label: 'false tables', value: metric('false_tables'), format: 'int' },
      {
        label: 'unhinted: tables · cell F1 · row F1',
        value: (r) =>
          metric('unhinted_tables')(r) === undefined
            ? undefined
            : `${metric('unhinted_tables')(r)} · ${metric('unhinted_cell_f1')(r)} · ${metric('unhinted_row_f1')(r)}`,
        format: 'text',
      },
      {
        label: 'hinted: tables · cell F1 · row F1',
        value: (r) =>
          metric('hinted_tables')(r) === undefined
            ? undefined
            : `${metric('hinted_tables')(r)} · ${metric('hinted_cell_f1')(r)} · ${metric('hinted_row_f1')(r)}`,
        format: 'text',
      },
    ],
  },
  {
    area: 'pdf-tables',
    title: 'Tables on PDF pages: what detection costs',
    intro:
      'The parse of the corpus PDFs and financebench 10-Ks without and with table detection, paired runs (the least CPU of each side).',
    columns: [
      { label: 'files', value: metric('files'), format: 'int' },
      { label: 'pages', value: metric('pages'), format: 'int' },
      { label: 'tables found', value: metric('tables'), format: 'int' },
      {
        label: 'parse CPU s without / with',
        value: (r) => `${metric('cpu_s_without')(r)} / ${metric('cpu_s_with')(r)}`,
        format: 'text',
      },
      { label: 'CPU added', value: (r) => `${metric('cpu_added_pct')(r)} %`, format: 'text' },
      {
        label: 'heap MB per page without / with',
        value: (r) => `${metric('heap_mb_per_page_without')(r)} / ${metric('heap_mb_per_page_with')(r)}`,
        format: 'text',
      },
    ],
  },
  {
    area: 'analysis',
    title: 'Readers of periods, amounts and line items',
    intro:
      '`pnpm bench --skip-ingest --skip-query --text-readers --record`: microseconds per call of the readers questions and tables go through, on real eval questions (about 300 characters) and table cells; CPU time of the process, wall time beside it.',
    columns: [
      { label: 'inputs', value: metric('inputs'), format: 'int' },
      { label: 'CPU p50 µs', value: metric('cpu_p50_us') },
      { label: 'CPU p95 µs', value: metric('cpu_p95_us') },
      { label: 'wall p50 µs', value: metric('wall_p50_us') },
    ],
  },
];
