import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResults, renderPage, sections } from '@pinpoint/results';
import { expect, test } from 'vitest';
import { benchIngestion, pdfsIn, tablesOffRow } from './ingest-bench.js';
import { benchRecorder } from './recording.js';

const shared = fileURLToPath(new URL('../../../../shared/', import.meta.url));

test('ingests PDFs and, in the same run, extracts their text with raw pdf.js; --record writes the result file', async () => {
  const files = pdfsIn(join(shared, 'corpus/formats/pdf'), 3);
  const figures = await benchIngestion(files, { concurrency: 2, inProcess: false });
  expect(figures).toMatchObject({ mode: 'isolated', pdfs: 3, concurrency: 2 });
  expect(figures.pages).toBeGreaterThan(0);
  expect(figures.stage_s.parse).toBeGreaterThan(0);
  // the raw extraction reads the same files' text layer: the same pages with text
  expect(figures.raw_pdfjs.processes).toBe(2);
  expect(Math.abs(figures.raw_pdfjs.text_pages - figures.pages)).toBeLessThanOrEqual(1);
  expect(figures.ratio_to_raw).toBeCloseTo(figures.pages_per_s / figures.raw_pdfjs.pages_per_s, 1);
  // both sides measured warm: the warm-up ingest and raw pdf.js's start-up (loading it, one file) counted apart
  expect(figures.warmup_cpu_s).toBeGreaterThan(0);
  expect(figures.raw_pdfjs.startup_cpu_s).toBeGreaterThan(0);
  expect(figures.raw_pdfjs.seconds).toBeGreaterThan(0);
  // the same files again with table detection off, against the same raw figures
  expect(figures.tables_off.pages).toBe(figures.pages);
  expect(figures.tables_off.cpu_ratio_to_raw).toBeCloseTo(
    figures.tables_off.pages_per_cpu_s / figures.raw_pdfjs.pages_per_cpu_s,
    1,
  );

  const dir = mkdtempSync(join(tmpdir(), 'pp-bench-results-'));
  try {
    const record = benchRecorder(['--skip-query', '--pdfs', '3', '--record'], { dir, note: 'a test run' });
    record('ingest', 'pdf-text', figures);
    record('ingest', 'pdf-text-tables-off', tablesOffRow(figures));
    const file = readResults(dir).find((r) => r.name === 'pdf-text');
    expect(file).toMatchObject({ area: 'ingest', name: 'pdf-text', command: 'pnpm bench --skip-query --pdfs 3 --record' });
    expect(file?.note).toBe('a test run');
    expect(file?.metrics.raw_pdfjs).toMatchObject({ text_pages: figures.raw_pdfjs.text_pages });
    const page = renderPage(sections, readResults(dir), '# page');
    expect(page).toContain('## Ingestion: PDFs against raw pdf.js text extraction');
    expect(page).toContain(`| [pdf-text](../results/ingest/pdf-text.json) | isolated | 3 (`);
    expect(page).toContain(`| [pdf-text-tables-off](../results/ingest/pdf-text-tables-off.json) | isolated, tables off | 3 (`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 240_000);
