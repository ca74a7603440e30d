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
];
