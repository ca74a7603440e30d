import { register } from 'node:module';
import { getHeapStatistics } from 'node:v8';
import type { Format } from '@pinpoint/core';
import type { ChildReply, ChildRequest, ParseReply } from './isolate.js';
import type { PdfPageReader } from './pdf/parse-pdf.js';

/**
 * The TypeScript loader turns source maps on, and Node then parses every module's map as it compiles
 * it: a tenth of this process's start-up CPU, spent again by every fresh child. Nothing here reads a
 * stack trace (errors cross as code and message), so the maps are turned off before the parsers load.
 */
process.setSourceMapsEnabled(false);
// run from its source (no bundle could be built), pdf.js's bundles skip the TypeScript loader
if (import.meta.url.endsWith('.ts')) register(new URL('./pdf/pdfjs-load-hooks.mjs', import.meta.url));
const { toPinpointError } = await import('@pinpoint/core');
const { buildContext } = await import('./capabilities.js');
const { checkedOutput, parseDocument, parseError } = await import('./parse.js');
const { measureUsage } = await import('./parse-usage.js');
const { assemblePdf, PdfPageReader: Reader } = await import('./pdf/parse-pdf.js');

/** The PDF this child reads in ranges (one parse at a time), open from `pdf-open` until `pdf-close`. */
let open: { reader: PdfPageReader; fileName: string; format: Format; ocr: boolean } | undefined;

async function closeOpen(): Promise<void> {
  const was = open;
  open = undefined;
  await was?.reader.close();
}

function current(): NonNullable<typeof open> {
  if (!open) throw new Error('no PDF is open in this parser process');
  return open;
}

async function answer(message: ChildRequest): Promise<unknown> {
  switch (message.kind) {
    case 'parse': {
      const ctx = buildContext(message.request);
      return parseDocument(message.bytes, ctx, message.request.options ?? {});
    }
    case 'pdf-open': {
      await closeOpen();
      const ctx = buildContext(message.request);
      try {
        const reader = await Reader.open(message.bytes, ctx, message.request.options ?? {}, 'original');
        open = { reader, fileName: ctx.fileName, format: 'pdf', ocr: !!ctx.ocr };
        return reader.numPages;
      } catch (err) {
        throw parseError(err, ctx);
      }
    }
    case 'pdf-pages': {
      const { reader, fileName, format } = current();
      try {
        return await reader.read(message.first, message.end);
      } catch (err) {
        throw parseError(err, { fileName, format });
      }
    }
    case 'pdf-whole': {
      const { reader, ...ctx } = current();
      try {
        return checkedOutput(assemblePdf(await reader.read(0, reader.numPages), ctx), ctx);
      } catch (err) {
        throw parseError(err, ctx);
      } finally {
        await closeOpen();
      }
    }
    case 'pdf-close':
      await closeOpen();
      return null;
  }
}

/** Runs in a forked process: answers requests one at a time until the parent lets it go. */
async function handle(message: ChildRequest): Promise<ParseReply> {
  try {
    return { ok: true, value: await answer(message) };
  } catch (err) {
    const e = toPinpointError(err);
    return { ok: false, code: e.code, message: e.message, ...(e.detail === undefined ? {} : { detail: e.detail }) };
  }
}

/**
 * The heap a next parse would inherit. A full collection costs more than many parses, so it runs
 * only when a parse ends and the heap looks large (over a third of the limit); the parent decides on the figure.
 */
function heapAfterParse(message: ChildRequest): number {
  const used = process.memoryUsage().heapUsed;
  // midway through a PDF read in ranges (the document open) the parent only learns the figure
  if (message.kind === 'pdf-open' || message.kind === 'pdf-pages') return used;
  if (used < getHeapStatistics().heap_size_limit / 3) return used;
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

// A spare whose parent went away has nothing left to do.
process.once('disconnect', () => process.exit(0));
if (!process.connected) process.exit(0);

process.on('message', (message: ChildRequest) => {
  void measureUsage(() => handle(message)).then(({ result, usage }) => {
    const reply: ChildReply = { ...result, heapUsed: heapAfterParse(message), usage };
    process.send?.(reply);
  });
});
