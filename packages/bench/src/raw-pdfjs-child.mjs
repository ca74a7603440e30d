/**
 * `node raw-pdfjs-child.mjs FILE…`: raw pdf.js text extraction of the files, one after the other, in this
 * process; prints one JSON line { files, failed, pages, text_pages, chars, cpu_s }. Plain JavaScript run by
 * plain `node`, so that the baseline pays no TypeScript loader: pdfjs-dist loaded as the PDF parser loads it
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

const lib = await loadPdfJs();
const out = { files: 0, failed: 0, pages: 0, text_pages: 0, chars: 0, cpu_s: 0 };
for (const file of process.argv.slice(2)) await extract(lib, file, out);
const cpu = process.cpuUsage();
out.cpu_s = (cpu.user + cpu.system) / 1e6;
process.stdout.write(`${JSON.stringify(out)}\n`);
