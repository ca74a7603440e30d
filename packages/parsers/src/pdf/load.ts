import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createError } from '@pinpoint/core';
import type { PDFDocumentProxy, PDFWorker } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { InThreadPort } from './in-thread-port.js';
import type { WorkerPageClass } from './page-content.js';
import { capturePageContent, forgetDocumentContent } from './page-content.js';
import { WholeInflate } from './whole-inflate.js';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
/** What evaluating pdf.js's worker bundle leaves on globalThis. */
type PdfJsWorkerGlobal = { pdfjsWorker?: { WorkerMessageHandler: { initializeFromPort(port: InThreadPort): void } } };

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
let loaded: Promise<PdfJs> | undefined;

/** Puts `own` back as `target[key]` where a polyfill replaced it. */
function restore(target: object, key: string, own: unknown): void {
  if ((target as Record<string, unknown>)[key] === own) return;
  Object.defineProperty(target, key, { value: own, writable: true, configurable: true, enumerable: false });
}

/**
 * pdf.js's legacy (Node) build and its worker (which runs in this thread), loaded once. Their bundled
 * core-js replaces Array.prototype.push with a JavaScript function on Node 20 (over an edge case: push
 * onto an array whose length is read-only must throw); every push of the whole process then went
 * through it, 9 % of the CPU of parsing the corpus PDFs. It replaces JSON.parse and JSON.stringify too
 * (for JSON.rawJSON and the reviver's source text, which Node 20 lacks): a process that parses PDFs
 * in itself then read and wrote every stored JSON body through a JavaScript reimplementation. Nothing
 * here relies on those, so the engine's own functions are put back once both are loaded.
 */
async function load(): Promise<PdfJs> {
  const { push } = Array.prototype;
  const { parse, stringify } = JSON;
  const lib = (await import(pathToFileURL(path.join(pdfjsRoot, 'legacy/build/pdf.mjs')).href)) as PdfJs;
  // evaluating the worker sets globalThis.pdfjsWorker, which pdf.js's in-thread worker then uses
  capturePageContent((await importWorker()).Page);
  restore(Array.prototype, 'push', push);
  restore(JSON, 'parse', parse);
  restore(JSON, 'stringify', stringify);
  return lib;
}

/** The one export the worker bundle has, which the bundle's own last line names. */
const WORKER_EXPORT = 'export { WorkerMessageHandler };';
/** Where the worker bundle's own DecompressionStream binding is read from while the bundle evaluates. */
const INFLATE_KEY = '__pinpointPdfWorkerInflate';

/**
 * pdf.js's worker bundle, evaluated with its `Page` class exported beside WorkerMessageHandler (the
 * bundle keeps it private) and a module-level `DecompressionStream` of its own, WholeInflate (the
 * platform's stays as it is for everything else); nothing else of the bundle is changed. Its content
 * stream, decoded for the text layer, is what a page's drawn lines are read from (page-content.ts),
 * instead of asking pdf.js for an operator list that evaluates the same stream a second time.
 */
async function importWorker(): Promise<{ Page: WorkerPageClass }> {
  const source = await readFile(path.join(pdfjsRoot, 'legacy/build/pdf.worker.mjs'), 'utf8');
  const at = source.lastIndexOf(WORKER_EXPORT);
  if (at < 0) throw new Error('pdf.js worker bundle: its export line was not found');
  // declared last, so the bundle's line numbers stay its own; nothing calls it before the module has run
  const exposed = `${source.slice(0, at)}export { WorkerMessageHandler, Page };${source.slice(at + WORKER_EXPORT.length)}
const DecompressionStream = globalThis.${INFLATE_KEY};
`;
  const global = globalThis as Record<string, unknown>;
  global[INFLATE_KEY] = WholeInflate;
  try {
    return (await import(`data:text/javascript;base64,${Buffer.from(exposed).toString('base64')}`)) as { Page: WorkerPageClass };
  } finally {
    delete global[INFLATE_KEY];
  }
}

function pdfjs(): Promise<PdfJs> {
  loaded ??= load();
  return loaded;
}

/** Each open document's worker (pdf.js's worker half, in this thread) and the port between them. */
const workers = new WeakMap<PDFDocumentProxy, { worker: PDFWorker; port: InThreadPort }>();

/** A worker for one document, in this thread, whose messages cross by reference (see InThreadPort). */
function inThreadWorker(lib: PdfJs): { worker: PDFWorker; port: InThreadPort } {
  const port = new InThreadPort();
  const handler = (globalThis as PdfJsWorkerGlobal).pdfjsWorker?.WorkerMessageHandler;
  if (!handler) throw new Error('pdf.js worker bundle not loaded');
  handler.initializeFromPort(port);
  // pdf.js's declared types give `port` the type of its default (null); it takes any object with a Worker's messaging
  const Worker = lib.PDFWorker as unknown as new (params: { port: InThreadPort; verbosity: number }) => PDFWorker;
  return { worker: new Worker({ port, verbosity: 0 }), port };
}

/** Closes a document opened with openPdf, and its worker. */
export async function closePdf(doc: PDFDocumentProxy): Promise<void> {
  try {
    await doc.destroy();
  } finally {
    forgetDocumentContent(doc);
    const own = workers.get(doc);
    own?.worker.destroy();
    own?.port.terminate();
  }
}

function errorName(err: unknown): string {
  return err && typeof err === 'object' && 'name' in err && typeof err.name === 'string' ? err.name : '';
}

/** Opens a PDF from bytes, offline (CMaps and standard fonts from the package folder), never evaluating code. */
export async function openPdf(bytes: Uint8Array, fileName: string): Promise<PDFDocumentProxy> {
  const lib = await pdfjs();
  const own = inThreadWorker(lib);
  // pdf.js may transfer (detach) the buffer it is given: hand it a copy.
  const task = lib.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    cMapUrl: `${path.join(pdfjsRoot, 'cmaps')}/`,
    cMapPacked: true,
    standardFontDataUrl: `${path.join(pdfjsRoot, 'standard_fonts')}/`,
    useSystemFonts: false,
    // On, though it has the worker build the outline of every glyph an operator list (read for a
    // page's rulings) shows, 15 % of that read's CPU: off, pdf.js's font loader needs a document to
    // load each font into, and makes a data URL of each font's bytes with core-js's base64 (Node 20
    // has no Uint8Array.prototype.toBase64), garbage of many times the font's size (+8 MB heap on a
    // one-page PDF with CJK fonts, tried and measured).
    disableFontFace: true,
    // nothing here paints: images are left out of operator lists (read for a page's rulings) rather than decoded
    maxImageSize: 1,
    verbosity: 0,
    worker: own.worker,
  });
  try {
    const doc = await task.promise;
    workers.set(doc, own);
    return doc;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    own.worker.destroy();
    own.port.terminate();
    if (errorName(err) === 'PasswordException') {
      throw createError(
        'PP_PARSE_ENCRYPTED_PDF',
        `${fileName} is protected by a password; remove the protection (or print to a new PDF) and upload it again.`,
        err,
      );
    }
    throw createError('PP_PARSE_CORRUPT', `${fileName} is truncated or damaged; re-export or re-download the PDF.`, err);
  }
}
