/**
 * `node raw-pdfjs-child.mjs [--warmup FILE] FILE…`: raw pdf.js text extraction of the files, one after the
 * other, in this process; prints one JSON line { files, failed, pages, text_pages, chars, cpu_s, startup_cpu_s,
 * seconds }: cpu_s and seconds (wall) from after pdf.js is loaded and the warm-up file (not counted) is read,
 * startup_cpu_s until then.
 * Plain JavaScript run by plain `node`, so that the baseline pays no TypeScript loader: pdfjs-dist loaded as the PDF parser loads it
 * (legacy build, its worker in this thread, CMaps and standard fonts from the package, no eval, no font
 * faces), then `getTextContent` of every page and nothing else.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

async function loadPdfJs() {
  // As the parser does: pdf.js's bundled core-js replaces these on Node 20; put the engine's own back.
  const { push } = Array.prototype;
  const { parse, stringify } = JSON;
  const lib = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // evaluating the worker sets globalThis.pdfjsWorker, which pdf.js's in-thread worker then uses
  await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  Object.defineProperty(Array.prototype, 'push', { value: push, writable: true, configurable: true, enumerable: false });
  Object.assign(JSON, { parse, stringify });
  return lib;
}

async function extract(lib, file, out) {
  const task = lib.getDocument({
    data: new Uint8Array(readFileSync(file)),
    isEvalSupported: false,
    cMapUrl: `${path.join(pdfjsRoot, 'cmaps')}/`,
    cMapPacked: true,
    standardFontDataUrl: `${path.join(pdfjsRoot, 'standard_fonts')}/`,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent({ includeMarkedContent: false, disableNormalization: false });
      const chars = content.items.reduce((n, item) => n + ('str' in item ? item.str.trim().length : 0), 0);
      out.pages++;
      if (chars > 0) out.text_pages++;
      out.chars += chars;
      page.cleanup();
    }
    await doc.destroy();
    out.files++;
  } catch {
    out.failed++;
    await task.destroy();
  }
}

const args = process.argv.slice(2);
const warmup = args[0] === '--warmup' ? args.slice(1, 2) : [];
const files = args.slice(2 * warmup.length);
const lib = await loadPdfJs();
// what starting up cost (loading pdf.js, reading the warm-up file) is counted apart
for (const file of warmup) await extract(lib, file, { files: 0, failed: 0, pages: 0, text_pages: 0, chars: 0 });
const started = process.cpuUsage();
const wall = performance.now();
const out = { files: 0, failed: 0, pages: 0, text_pages: 0, chars: 0, cpu_s: 0, startup_cpu_s: 0, seconds: 0 };
for (const file of files) await extract(lib, file, out);
const cpu = process.cpuUsage(started);
out.cpu_s = (cpu.user + cpu.system) / 1e6;
out.startup_cpu_s = (started.user + started.system) / 1e6;
out.seconds = (performance.now() - wall) / 1000;
process.stdout.write(`${JSON.stringify(out)}\n`);
