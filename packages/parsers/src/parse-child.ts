import { toPinpointError } from '@pinpoint/core';
import { buildContext } from './capabilities.js';
import type { ChildReply, ChildRequest } from './isolate.js';
import { parseDocument } from './parse.js';

/** Runs in a forked process: receives one parse request, answers once, exits. */
async function handle(message: ChildRequest): Promise<ChildReply> {
  try {
    const ctx = buildContext(message.request);
    const output = await parseDocument(message.bytes, ctx, message.request.options ?? {});
    return { ok: true, output };
  } catch (err) {
    const e = toPinpointError(err);
    return { ok: false, code: e.code, message: e.message };
  }
}

// A spare whose parent went away has nothing left to do.
process.once('disconnect', () => process.exit(0));
if (!process.connected) process.exit(0);

process.once('message', (message: ChildRequest) => {
  void handle(message).then((reply) => {
    process.send?.(reply, () => process.exit(0));
  });
});
