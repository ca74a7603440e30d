import { register } from 'node:module';
import { getHeapStatistics } from 'node:v8';
import type { ChildReply, ChildRequest, ParseReply } from './isolate.js';

/**
 * The TypeScript loader turns source maps on, and Node then parses every module's map as it compiles
 * it: a tenth of this process's start-up CPU, spent again by every fresh child. Nothing here reads a
 * stack trace (errors cross as code and message), so the maps are turned off before the parsers load.
 */
process.setSourceMapsEnabled(false);
register(new URL('./pdf/pdfjs-load-hooks.mjs', import.meta.url));
const { toPinpointError } = await import('@pinpoint/core');
const { buildContext } = await import('./capabilities.js');
const { parseDocument } = await import('./parse.js');
const { measureUsage } = await import('./parse-usage.js');

/** Runs in a forked process: answers parse requests one at a time until the parent lets it go. */
async function handle(message: ChildRequest): Promise<ParseReply> {
  try {
    const ctx = buildContext(message.request);
    const output = await parseDocument(message.bytes, ctx, message.request.options ?? {});
    return { ok: true, output };
  } catch (err) {
    const e = toPinpointError(err);
    return { ok: false, code: e.code, message: e.message, ...(e.detail === undefined ? {} : { detail: e.detail }) };
  }
}

/**
 * The heap a next parse would inherit. A full collection costs more than many parses, so it runs
 * only when the heap looks large (over a third of the limit); the parent decides on the figure.
 */
function heapAfterParse(): number {
  const used = process.memoryUsage().heapUsed;
  if (used < getHeapStatistics().heap_size_limit / 3) return used;
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

// A spare whose parent went away has nothing left to do.
process.once('disconnect', () => process.exit(0));
if (!process.connected) process.exit(0);

process.on('message', (message: ChildRequest) => {
  void measureUsage(() => handle(message)).then(({ result, usage }) => {
    const answer: ChildReply = { ...result, heapUsed: heapAfterParse(), usage };
    process.send?.(answer);
  });
});
