import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Format } from '@pinpoint/core';
import { toPinpointError } from '@pinpoint/core';
import type { CapabilitySpec } from '@pinpoint/parsers';
import { buildContext, detectFormat, parseDocument } from '@pinpoint/parsers';

export interface PdfBenchResult {
  files: number;
  /** Pages that came from a text layer (scans and failures excluded). */
  pages: number;
  elements: number;
  seconds: number;
  pagesPerSecond: number;
  /** CPU time of this process while parsing (user + system): steadier than wall time on a shared machine. */
  cpuSeconds: number;
  pagesPerCpuSecond: number;
  skipped: Array<{ file: string; code: string }>;
}

/**
 * Ingestion throughput of the PDF parser over the PDFs of a folder, in process: pages with a text layer
 * per second of wall time (parse only; files that fail, e.g. scans without OCR, are listed as skipped).
 */
export async function benchPdfIngestion(dir: string): Promise<PdfBenchResult> {
  const files = readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith('.pdf'))
    .sort();
  const result: PdfBenchResult = {
    files: 0,
    pages: 0,
    elements: 0,
    seconds: 0,
    pagesPerSecond: 0,
    cpuSeconds: 0,
    pagesPerCpuSecond: 0,
    skipped: [],
  };
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(join(dir, file)));
    const started = performance.now();
    const cpu = process.cpuUsage();
    try {
      const out = await parseDocument(bytes, { fileName: file, format: detectFormat(file, bytes) });
      result.seconds += (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      result.cpuSeconds += (used.user + used.system) / 1e6;
      result.files++;
      result.pages += out.sourceMap.pages.filter((p) => p.text_source === 'text-layer').length;
      result.elements += out.elements.length;
    } catch (err) {
      result.skipped.push({ file, code: toPinpointError(err).code });
    }
  }
  result.pagesPerSecond = result.seconds > 0 ? result.pages / result.seconds : 0;
  result.pagesPerCpuSecond = result.cpuSeconds > 0 ? result.pages / result.cpuSeconds : 0;
  return result;
}

export interface FormatBench {
  files: number;
  failed: number;
  pages: number;
  elements: number;
  seconds: number;
  cpuSeconds: number;
  elementsPerSecond: number;
}

/**
 * Parse throughput per format over a list of files (in process; failures counted, not timed). With
 * capabilities (OCR, LibreOffice) the image and slide/legacy formats run their real tool paths, so
 * seconds per page of png/jpeg is the OCR cost per page.
 */
export async function benchFormats(
  paths: readonly string[],
  capabilities?: CapabilitySpec,
): Promise<Partial<Record<Format, FormatBench>>> {
  const out: Partial<Record<Format, FormatBench>> = {};
  for (const path of paths) {
    const bytes = new Uint8Array(readFileSync(path));
    const fileName = path.split('/').at(-1) as string;
    let format: Format;
    try {
      format = detectFormat(fileName, bytes);
    } catch {
      continue;
    }
    const stats = out[format] ?? { files: 0, failed: 0, pages: 0, elements: 0, seconds: 0, cpuSeconds: 0, elementsPerSecond: 0 };
    out[format] = stats;
    const started = performance.now();
    const cpu = process.cpuUsage();
    try {
      const ctx = capabilities ? buildContext({ fileName, format, capabilities }) : { fileName, format };
      const parsed = await parseDocument(bytes, ctx);
      const used = process.cpuUsage(cpu);
      stats.seconds += (performance.now() - started) / 1000;
      stats.cpuSeconds += (used.user + used.system) / 1e6;
      stats.files++;
      stats.pages += parsed.sourceMap.pages.length;
      stats.elements += parsed.elements.length;
      stats.elementsPerSecond = stats.seconds > 0 ? stats.elements / stats.seconds : 0;
    } catch {
      stats.failed++;
    }
  }
  return out;
}

// `npx tsx packages/bench/src/parser-bench.ts [folder]` prints the result as one JSON line.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? fileURLToPath(new URL('../../../../shared/corpus/formats/pdf/', import.meta.url));
  const result = await benchPdfIngestion(dir);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
