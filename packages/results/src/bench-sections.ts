import { type Column, formatValue, metric, type Section } from './page.js';
import type { ResultFile } from './record.js';

type Result = ResultFile & { path: string };

const num = (path: string) => (r: Result) => {
  const v = metric(path)(r);
  return typeof v === 'number' ? v : undefined;
};
const mib =
  (path: string): Column['value'] =>
  (r) => {
    const v = num(path)(r);
    return v === undefined ? undefined : v / 2 ** 20;
  };
/** "p50 / p95" of a metric holding both, in milliseconds. */
const p50p95 =
  (path: string): Column['value'] =>
  (r) => {
    const [a, b] = [num(`${path}.p50`)(r), num(`${path}.p95`)(r)];
    return a === undefined || b === undefined ? undefined : `${formatValue(a, 'ms')} / ${formatValue(b, 'ms')}`;
  };
/** A metric whose name holds a dot (score_ocr.py's "box@0.5"), read as one key. */
const ownKey =
  (key: string): Column['value'] =>
  (r) => {
    const v = (r.metrics as Record<string, unknown>)[key];
    return typeof v === 'number' ? v : undefined;
  };
/** A small rate (CER) to four decimal places, the precision its floors are given in. */
const fourPlaces =
  (path: string): Column['value'] =>
  (r) => {
    const v = num(path)(r);
    return v === undefined ? undefined : v.toFixed(4);
  };
/** What score_ocr.py says of a group of pages. */
const ocrScoreColumns: Column[] = [
  { label: 'CER', value: fourPlaces('cer'), format: 'text' },
  { label: 'box@0.5', value: ownKey('box@0.5'), format: 'ratio' },
];
/** Two metrics as "a<open>b<close>", or nothing when either is missing (never "undefined" on the page). */
const pair =
  (a: string, b: string, open: string, close = ''): Column['value'] =>
  (r) => {
    const [x, y] = [metric(a)(r), metric(b)(r)];
    return x === undefined || y === undefined ? undefined : `${x}${open}${y}${close}`;
  };
/** The entries of a one-level object metric as "key value · key value". */
const entries =
  (path: string, format: 'seconds' | 'ratio' | 'number', label: (k: string) => string = (k) => k): Column['value'] =>
  (r) => {
    const o = (r.metrics as Record<string, unknown>)[path];
    if (!o || typeof o !== 'object') return undefined;
    return Object.entries(o as Record<string, number>)
      .map(([k, v]) => `${label(k)} ${formatValue(v, format)}`)
      .join(' · ');
  };

const GROWTH_LABELS: Record<string, string> = {
  ingest_seconds_per_chunk: 'ingest s/chunk',
  rss_bytes: 'RSS',
  index_bytes: 'index',
  cold_start_ms: 'cold start',
  query_p95_ms: 'lexical p95',
  hybrid_p95_ms: 'hybrid p95',
};
const growth: Column['value'] = (r) => {
  const g = (r.metrics as Record<string, unknown>).growth as Record<string, number> | undefined;
  if (!g) return undefined;
  const parts = Object.entries(GROWTH_LABELS)
    .filter(([k]) => g[k] !== undefined)
    .map(([k, label]) => `${label} ${g[k]}`);
  return `from ${formatValue(g.from_chunks, 'int')}: ${parts.join(' · ')}`;
};

const tenths: Column['value'] = (r) => {
  const [first, last, change] = ['first_tenth_chunks_per_s', 'last_tenth_chunks_per_s', 'first_to_last_change'].map((k) =>
    num(k)(r),
  );
  if (first === undefined || last === undefined) return undefined;
  return `${first} → ${last}${change === undefined ? '' : ` (${change >= 0 ? '+' : '−'}${Math.abs(change * 100).toFixed(0)} %)`}`;
};

/** The same set's figure in `results/<area>/<name>.json`. */
const sameSet =
  (area: string, path: string): Column['value'] =>
  (r, all) => {
    const other = all.find((x) => x.area === area && x.name === r.name);
    return other ? metric(path)(other) : undefined;
  };

/** The bench's tables (`pnpm bench … --record`), in page order after the evaluation's. */
export const benchSections: Section[] = [
  {
    area: 'peer',
    title: 'Retrieval against JavaScript search libraries',
    intro:
      "`pnpm bench --peer --record`: each set's documents ingested by Pinpoint, then minisearch, flexsearch, Orama (`@orama/orama`) and lunr each index those same chunks and answer the same answerable questions, judged by the eval's relevance rule (gold file and page, an expected answer, the gold quote) on the top 10. English: each library's own tokenizer and English analysis (flexsearch's English pack, Orama's stemmer and `@orama/stopwords`, lunr's pipeline; minisearch's defaults); Japanese and Chinese: a word tokenizer by `Intl.Segmenter` in the set's language given to each (packages/bench/README.md says exactly how). The row shows the best library; Pinpoint's MRR@10 is its eval run of the same set (retrieval of `ask`, `results/eval/`).",
    columns: [
      { label: 'lang', value: metric('lang'), format: 'text' },
      { label: 'questions', value: metric('questions'), format: 'int' },
      { label: 'chunks', value: metric('chunks'), format: 'int' },
      { label: 'best library', value: (r) => `${metric('library')(r)} ${metric('library_version')(r)}`, format: 'text' },
      { label: 'its MRR@10', value: metric('mrr@10'), format: 'ratio' },
      { label: 'its Hit@1', value: metric('hit@1'), format: 'ratio' },
      { label: 'its Hit@5', value: metric('hit@5'), format: 'ratio' },
      { label: 'Pinpoint MRR@10', value: sameSet('eval', 'mrr@10'), format: 'ratio' },
      { label: 'MRR@10 of each library', value: entries('mrr_by_library', 'ratio'), format: 'text' },
    ],
  },
  {
    area: 'ingest',
    title: 'Ingestion: PDFs against raw pdf.js text extraction',
    intro:
      "`pnpm bench --skip-query --record` (`--in-process`: the in-process row): Pinpoint ingests the PDFs of `../shared/corpus/formats/pdf` into a temporary data folder — parse (in child processes with time and memory limits, or in the bench process), chunk, analyse, metadata, lexical index — two jobs at once, largest first; then, in the same run, raw pdf.js (loaded as the parser loads it; `getTextContent` of every page, nothing else) reads the same files in as many processes (one for the in-process row). Pages: pages with a text layer (the bench runs without OCR; scans and the encrypted file fail with their codes). Ratio: Pinpoint's pages/s over raw pdf.js's; by CPU: the same with pages per CPU second (the bench and its parse processes, against the raw processes), steadier than wall time on a busy machine. The `…-tables-off` row: the same files ingested again in the same run with PDF table detection off (the engine's `parse.tables: false`), against the same raw pdf.js figures, so what finding tables costs stays in view. Both sides are measured warm, as in a running server: the files are ingested once first and not counted (`warmup_cpu_s` in the file), and each raw pdf.js process reads the smallest file before its clock starts (`startup_cpu_s`). Until 2026-12-07 the tables-on run came first and carried alone what a cold start costs: 25–40 % more CPU per document in the parse processes over the whole run (raw pdf.js reading the files twice costs twice as much; it has no such warm-up). Stages: job seconds summed over the jobs.",
    columns: [
      { label: 'parsing', value: metric('mode'), format: 'text' },
      { label: 'PDFs (ready)', value: pair('pdfs', 'ready', ' (', ')'), format: 'text' },
      { label: 'pages', value: metric('pages'), format: 'int' },
      { label: 'Pinpoint s', value: metric('seconds'), format: 'seconds' },
      { label: 'Pinpoint pages/s', value: metric('pages_per_s') },
      { label: 'raw pdf.js s', value: metric('raw_pdfjs.seconds'), format: 'seconds' },
      { label: 'raw pdf.js pages/s', value: metric('raw_pdfjs.pages_per_s') },
      { label: 'ratio', value: metric('ratio_to_raw'), format: 'ratio' },
      {
        label: 'pages per CPU s: Pinpoint / raw',
        value: pair('pages_per_cpu_s', 'raw_pdfjs.pages_per_cpu_s', ' / '),
        format: 'text',
      },
      { label: 'ratio by CPU', value: metric('cpu_ratio_to_raw'), format: 'ratio' },
      { label: 'job seconds by stage', value: entries('stage_s', 'seconds'), format: 'text' },
    ],
  },
  {
    area: 'query',
    title: 'Question latency',
    intro:
      "`pnpm bench --skip-ingest --record`: the set's documents ingested into a temporary data folder, then every question asked one after the other with `engine.ask` in the bench process (the zero-key default: lexical retrieval, extractive answer, the refusal gate). ask: the whole answer; lexical: the index stage alone. Milliseconds.",
    columns: [
      { label: 'questions', value: metric('questions'), format: 'int' },
      { label: 'ask p50', value: metric('ask_ms.p50'), format: 'ms' },
      { label: 'ask p95', value: metric('ask_ms.p95'), format: 'ms' },
      { label: 'lexical p50', value: metric('lexical_ms.p50'), format: 'ms' },
      { label: 'lexical p95', value: metric('lexical_ms.p95'), format: 'ms' },
    ],
  },
  {
    area: 'scale',
    title: 'Scale: the embedded default at N chunks',
    intro:
      "`pnpm bench --scale 10000,100000 --record` (one file per size): long synthetic reports recombined from the eval and corpus text by a seeded generator (English, Japanese, Chinese; no two chunks alike), uploaded as text files and ingested by the engine's own worker (parse, chunk, analyse, metadata, lexical index and, in hybrid runs, the vectors of a generated 384-dimension ONNX test encoder), 4 jobs at once. Tenths: chunks/s in the first and the last tenth of the run. Cold start: reopen the folder and answer a first question; hybrid cold start: the same with the encoder and the vectors (the saved graph read back, or built again). Search: `engine.search`, 300 questions of the dev sets, p50 / p95 ms. FTS5 peer: the same chunks' analysed terms in SQLite FTS5 (better-sqlite3's SQLite, optimised after the build), the same questions as an OR of their terms, top 10 by bm25(), timed with the question's analysis; CPU: this process's CPU time per question, which the machine's other load changes least. Growth: the exponent e of cost ∝ chunks^e from the size before it in the same command (1 = linear, 0 = flat).",
    columns: [
      { label: 'chunks', value: metric('chunks'), format: 'int' },
      { label: 'ingest chunks/s', value: metric('ingest_chunks_per_s'), format: 'int' },
      { label: 'per CPU s', value: metric('ingest_chunks_per_cpu_s'), format: 'int' },
      { label: 'first → last tenth', value: tenths, format: 'text' },
      { label: 'peak RSS MiB', value: mib('peak_rss_bytes'), format: 'int' },
      { label: 'index MiB', value: mib('index_bytes'), format: 'int' },
      { label: 'metadata MiB', value: mib('metadata_bytes'), format: 'int' },
      { label: 'cold start ms', value: metric('cold_start_ms'), format: 'int' },
      { label: 'hybrid cold start ms', value: metric('hybrid_cold_start_ms'), format: 'int' },
      { label: 'lexical p50 / p95', value: p50p95('search_lexical_ms'), format: 'text' },
      { label: 'hybrid p50 / p95', value: p50p95('search_hybrid_ms'), format: 'text' },
      { label: 'dense recall@10', value: metric('dense_recall_at_10'), format: 'text' },
      { label: 'vectors MiB', value: mib('vectors_bytes'), format: 'int' },
      { label: 'lexical CPU p50 / p95', value: p50p95('search_lexical_cpu_ms'), format: 'text' },
      { label: 'FTS5 peer p50 / p95', value: p50p95('peer_fts5.query_ms'), format: 'text' },
      { label: 'FTS5 CPU p50 / p95', value: p50p95('peer_fts5.query_cpu_ms'), format: 'text' },
      { label: 'FTS5 index MiB', value: mib('peer_fts5.index_bytes'), format: 'int' },
      { label: 'FTS5 build s', value: metric('peer_fts5.build_s'), format: 'int' },
      { label: 'growth', value: growth, format: 'text' },
    ],
  },
  {
    area: 'ocr',
    title: 'OCR',
    intro:
      '`pnpm bench --skip-ingest --skip-query --ocr --record`: the scanned PDFs of `../shared/corpus/formats/pdf` (no text layer) parsed in process with the tesseract CLI: each page rendered (grey, 200 dpi) and recognised, as many pages at once as the machine has cores. Wall and CPU seconds per page (CPU includes pdftoppm and tesseract); A4 pages apart, as the corpus also holds newspaper-size scans.',
    columns: [
      { label: 'files', value: metric('files'), format: 'int' },
      { label: 'A4 pages', value: metric('a4_pages'), format: 'int' },
      { label: 'wall s per A4 page', value: metric('a4_wall_s_per_page'), format: 'seconds' },
      { label: 'CPU s per A4 page', value: metric('a4_cpu_s_per_page'), format: 'seconds' },
      { label: 'all pages', value: metric('pages'), format: 'int' },
      { label: 'wall s per page', value: metric('wall_s_per_page'), format: 'seconds' },
      { label: 'CPU s per page', value: metric('cpu_s_per_page'), format: 'seconds' },
      { label: 'pages at once', value: metric('page_concurrency'), format: 'int' },
    ],
  },
  {
    area: 'ocr-scripts',
    title: 'OCR per script: ocr-dev',
    intro:
      "`pnpm bench --skip-ingest --skip-query --ocr [--ocr-set-only] --record`: every image file of `../shared/eval/ocr-dev` (PNG, JPEG, TIFF; 68 files, 76 pages) parsed in process as the parse child runs it — the page's script detected, its model chosen, TIFF pages decoded and rendered to PNG — one file at a time, as many pages of a file at once as the machine has cores. Wall and CPU seconds per page (tesseract's processes included); CER and box@0.5 by `../shared/tools/score_ocr.py` over the pages as `pinpoint text --json` prints them.",
    columns: [
      { label: 'pages', value: metric('pages'), format: 'int' },
      { label: 'failed files', value: metric('failed_files'), format: 'int' },
      { label: 'wall s per page', value: metric('wall_s_per_page'), format: 'seconds' },
      { label: 'CPU s per page', value: metric('cpu_s_per_page'), format: 'seconds' },
      ...ocrScoreColumns,
      { label: 'pages at once', value: metric('page_concurrency'), format: 'int' },
    ],
  },
  {
    area: 'ocr-variants',
    title: 'OCR per variant: ocr-dev',
    intro:
      'The same run, scored per variant of the page images: clean 200 dpi PNG, 300 dpi JPEG (quality 70), scanner TIFFs (rotated 1-1.5°, noise; Group 4 bilevel and LZW grey) and the multi-page TIFFs. box@0.5 is not scored on the rotated scanner pages.',
    columns: [
      { label: 'pages', value: metric('pages'), format: 'int' },
      { label: 'missing', value: metric('missing'), format: 'int' },
      ...ocrScoreColumns,
    ],
  },
  {
    area: 'load',
    title: 'Load: concurrent askers over HTTP',
    intro:
      "`pnpm bench --skip-ingest --skip-query --load --record`: the real server started with `PINPOINT_AUTH=on` and the default rate limits (120 asks per user and minute), the set's documents uploaded, then each asker — its own user and API token, a viewer of the collection — asks the set's questions in a loop for the duration. A 429 is waited out as its `Retry-After` says and counted apart; errors are other non-200 answers. Latency is of answered asks, in ms.",
    columns: [
      { label: 'set', value: metric('set'), format: 'text' },
      { label: 'askers', value: metric('askers'), format: 'int' },
      { label: 'seconds', value: metric('seconds'), format: 'int' },
      { label: 'answers', value: metric('answers'), format: 'int' },
      { label: 'answers/s', value: metric('answers_per_s') },
      { label: 'p50', value: metric('p50_ms'), format: 'ms' },
      { label: 'p95', value: metric('p95_ms'), format: 'ms' },
      { label: 'errors', value: metric('errors'), format: 'int' },
      { label: '429s', value: metric('rate_limited'), format: 'int' },
    ],
  },
  {
    area: 'formats',
    title: 'Parse throughput per format',
    intro:
      '`pnpm bench --skip-ingest --skip-query --formats --record`: the first corpus files of each extension (4 by default, `--per-format N`) parsed in the bench process with OCR (tesseract) and LibreOffice on, one row per detected format (files of one folder may be detected as another format); failures counted, not timed. Seconds per page where the format has pages: for png and jpeg that is the OCR cost per image.',
    columns: [
      { label: 'files', value: metric('files'), format: 'int' },
      { label: 'failed', value: metric('failed'), format: 'int' },
      { label: 'pages', value: metric('pages'), format: 'int' },
      { label: 'elements', value: metric('elements'), format: 'int' },
      { label: 'wall s', value: metric('seconds'), format: 'seconds' },
      { label: 'elements/s', value: metric('elementsPerSecond') },
      { label: 's per page', value: metric('secondsPerPage'), format: 'seconds' },
    ],
  },
];
