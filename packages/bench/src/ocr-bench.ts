import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ParseOutput } from '@pinpoint/core';
import { buildContext, parseDocument } from '@pinpoint/parsers';
import { cpuSecondsWithChildren, round } from './recording.js';

/** A4 (595 × 842 pt) either way up, give or take a point. */
function isA4(width: number, height: number): boolean {
  const [a, b] = width < height ? [width, height] : [height, width];
  return Math.abs(a - 595) < 2 && Math.abs(b - 842) < 2;
}

/** OCR cost per page: A4 pages apart (the corpus's scans of newspapers are larger), and all pages. */
export interface OcrFigures {
  files: number;
  page_concurrency: number;
  a4_pages: number;
  a4_wall_s_per_page: number;
  a4_cpu_s_per_page: number;
  pages: number;
  wall_s_per_page: number;
  cpu_s_per_page: number;
}

interface OcrFile {
  file: string;
  pages: number;
  a4: boolean;
  seconds: number;
  cpuSeconds: number;
  text: string;
}

/** The corpus PDFs without any text layer (their parse without OCR ends PP_PARSE_NO_TEXT); large files all have one. */
async function scannedPdfs(folder: string): Promise<string[]> {
  const scans: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    if (!name.endsWith('.pdf') || statSync(join(folder, name)).size > 1_000_000) continue;
    try {
      await parseDocument(new Uint8Array(readFileSync(join(folder, name))), { fileName: name, format: 'pdf' });
    } catch (err) {
      if ((err as { code?: string }).code === 'PP_PARSE_NO_TEXT') scans.push(name);
    }
  }
  return scans;
}

function textOf(out: ParseOutput): string {
  return out.elements.map((e) => e.text).join('\n');
}

/** Share of the earlier text's characters (as a multiset, whitespace aside) found again in the new text. */
function characterOverlap(before: string, after: string): number {
  const count = (s: string): Map<string, number> => {
    const m = new Map<string, number>();
    for (const ch of s.replace(/\s+/g, '')) m.set(ch, (m.get(ch) ?? 0) + 1);
    return m;
  };
  const a = count(before);
  const b = count(after);
  let common = 0;
  let total = 0;
  for (const [ch, n] of a) {
    common += Math.min(n, b.get(ch) ?? 0);
    total += n;
  }
  const totalAfter = [...b.values()].reduce((s, n) => s + n, 0);
  return Math.max(total, totalAfter) === 0 ? 1 : common / Math.max(total, totalAfter);
}

/**
 * OCR seconds per page on the scanned corpus PDFs, in process (the parse child runs the same code):
 * wall and CPU (pdftoppm and tesseract included) per page, A4 pages apart, `pageConcurrency` pages at once. `textOut` keeps what was
 * recognised; `compareWith` (an earlier `textOut`) gives the character overlap per file.
 */
export async function benchOcr(
  folder: string,
  options: { textOut?: string; compareWith?: string; pageConcurrency: number },
): Promise<OcrFigures> {
  const ctx = buildContext({
    fileName: '',
    format: 'pdf',
    capabilities: { ocr: { engine: 'tesseract-cli' } },
    pageConcurrency: options.pageConcurrency,
  });
  const rows: OcrFile[] = [];
  for (const file of await scannedPdfs(folder)) {
    const bytes = new Uint8Array(readFileSync(join(folder, file)));
    const cpu = cpuSecondsWithChildren();
    const started = performance.now();
    let out: ParseOutput | undefined;
    try {
      out = await parseDocument(bytes, { ...ctx, fileName: file }, {});
    } catch (err) {
      console.log(`  ${file}: ${(err as { code?: string }).code ?? err}`);
      continue;
    }
    const pages = out.sourceMap.pages ?? [];
    rows.push({
      file,
      pages: pages.length,
      a4: pages.every((p) => isA4(p.width, p.height)),
      seconds: (performance.now() - started) / 1000,
      cpuSeconds: cpuSecondsWithChildren() - cpu,
      text: textOf(out),
    });
  }
  const earlier = options.compareWith ? (JSON.parse(readFileSync(options.compareWith, 'utf8')) as Record<string, string>) : {};
  console.log(`OCR of the scanned corpus PDFs (in process, tesseract CLI, ${options.pageConcurrency} page(s) at once):`);
  console.log('  file                                               pages  wall s/page  CPU s/page  chars  overlap');
  for (const r of rows) {
    const before = earlier[r.file];
    const overlap = before === undefined ? '' : `${(100 * characterOverlap(before, r.text)).toFixed(1)} %`;
    console.log(
      `  ${r.file.padEnd(50)} ${String(r.pages).padStart(5)} ${(r.seconds / r.pages).toFixed(2).padStart(12)} ${(r.cpuSeconds / r.pages).toFixed(2).padStart(11)} ${String(r.text.length).padStart(6)}  ${overlap}`,
    );
  }
  const totals = (subset: OcrFile[]) => {
    const pages = subset.reduce((n, r) => n + r.pages, 0);
    const wall = subset.reduce((n, r) => n + r.seconds, 0);
    const cpu = subset.reduce((n, r) => n + r.cpuSeconds, 0);
    return { pages, wall_s_per_page: round(wall / pages), cpu_s_per_page: round(cpu / pages) };
  };
  const a4 = totals(rows.filter((r) => r.a4));
  const all = totals(rows);
  for (const [label, t] of [
    ['A4 pages', a4],
    ['all pages', all],
  ] as const)
    console.log(
      `  ${label}: ${t.pages} pages, ${t.wall_s_per_page.toFixed(2)} s/page wall, ${t.cpu_s_per_page.toFixed(2)} CPU s/page`,
    );
  if (options.textOut)
    writeFileSync(options.textOut, JSON.stringify(Object.fromEntries(rows.map((r) => [r.file, r.text])), null, 1));
  return {
    files: rows.length,
    page_concurrency: options.pageConcurrency,
    a4_pages: a4.pages,
    a4_wall_s_per_page: a4.wall_s_per_page,
    a4_cpu_s_per_page: a4.cpu_s_per_page,
    pages: all.pages,
    wall_s_per_page: all.wall_s_per_page,
    cpu_s_per_page: all.cpu_s_per_page,
  };
}
