/**
 * Raw pdf.js text extraction, the baseline of the ingestion bench: `raw-pdfjs-child.mjs` (plain `node`)
 * loads pdfjs-dist as the PDF parser loads it and reads the text content of every page of its files,
 * nothing else — no lines, blocks, headings, chunks, index or storage.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * What one process extracted: documents, pages read, pages with any text, characters, its CPU seconds
 * (once started: pdf.js loaded and the warm-up file read), and what starting up cost it.
 */
export interface RawExtraction {
  files: number;
  failed: number;
  pages: number;
  text_pages: number;
  chars: number;
  cpu_s: number;
  startup_cpu_s: number;
  /** Wall seconds once started. */
  seconds: number;
}

/** The files split over `processes` lists, largest first onto the lightest list (as the ingest queue orders them). */
function split(files: readonly string[], processes: number): string[][] {
  const lists = Array.from({ length: processes }, () => ({ bytes: 0, files: [] as string[] }));
  const sized = files.map((f) => ({ f, size: statSync(f).size })).sort((a, b) => b.size - a.size);
  for (const { f, size } of sized) {
    const lightest = lists.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    lightest.files.push(f);
    lightest.bytes += size;
  }
  return lists.map((l) => l.files).filter((l) => l.length > 0);
}

function runChild(files: string[], warmup: string | undefined): Promise<RawExtraction> {
  const script = fileURLToPath(new URL('./raw-pdfjs-child.mjs', import.meta.url));
  const args = [script, ...(warmup ? ['--warmup', warmup] : []), ...files];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`raw pdf.js extraction exited with ${code}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as RawExtraction);
    });
  });
}

/**
 * Raw extraction over `files` in `processes` child processes at once (each loads pdf.js once) — the same
 * shape as isolated ingestion with that many workers. Timed from the first spawn to the last exit; with
 * `warmup`, each process reads that file first (as the ingestion's parse processes are warm) and the
 * time is the longest any took once started.
 */
export async function rawPdfJsThroughput(
  files: readonly string[],
  processes: number,
  warmup?: string,
): Promise<RawExtraction & { processes: number }> {
  const started = performance.now();
  const parts = await Promise.all(split(files, processes).map((list) => runChild(list, warmup)));
  const seconds = warmup ? Math.max(...parts.map((p) => p.seconds)) : (performance.now() - started) / 1000;
  const sum = (k: Exclude<keyof RawExtraction, 'seconds'>): number => parts.reduce((n, p) => n + p[k], 0);
  return {
    files: sum('files'),
    failed: sum('failed'),
    pages: sum('pages'),
    text_pages: sum('text_pages'),
    chars: sum('chars'),
    cpu_s: Math.round(sum('cpu_s') * 100) / 100,
    startup_cpu_s: Math.round(sum('startup_cpu_s') * 100) / 100,
    seconds: Math.round(seconds * 100) / 100,
    processes: parts.length,
  };
}
