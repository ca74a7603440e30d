import { toPinpointError } from '@pinpoint/core';
import { buildContext } from './capabilities.js';
import type { ChildReply, ChildRequest, ParseReply } from './isolate.js';
import { parseDocument } from './parse.js';

/** Runs in a forked process: answers parse requests one at a time until the parent lets it go. */
async function handle(message: ChildRequest): Promise<ParseReply> {
  try {
    const ctx = buildContext(message.request);
    const output = await parseDocument(message.bytes, ctx, message.request.options ?? {});
    return { ok: true, output };
  } catch (err) {
    const e = toPinpointError(err);
    return { ok: false, code: e.code, message: e.message };
  }
}

/** The heap a next parse would inherit: measured after a full collection (the parent starts us with --expose-gc). */
function heapAfterGc(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

// A spare whose parent went away has nothing left to do.
process.once('disconnect', () => process.exit(0));
if (!process.connected) process.exit(0);

process.on('message', (message: ChildRequest) => {
  void handle(message).then((reply) => {
    const answer: ChildReply = { ...reply, heapUsed: heapAfterGc() };
    process.send?.(answer);
  });
});
