import type { ParseContext, ParseOutput } from '@pinpoint/core';
import { createError, PinpointError } from '@pinpoint/core';
import { parserFor } from './dispatch.js';
import type { ParseOptions } from './registry.js';

/**
 * Parses one file with the parser registered for ctx.format. Unusable input throws a PinpointError
 * with a stable code; anything else a parser throws is reported as PP_PARSE_CORRUPT in our own words,
 * the library's text kept as the error's detail (log and diagnostics), never in the message.
 */
export async function parseDocument(bytes: Uint8Array, ctx: ParseContext, options: ParseOptions = {}): Promise<ParseOutput> {
  if (bytes.byteLength === 0) throw createError('PP_EMPTY_FILE', `${ctx.fileName} is empty (0 bytes); upload the file again.`);
  const entry = parserFor(ctx.format);
  try {
    return checkedOutput(await entry.parse(bytes, ctx, options), ctx);
  } catch (err) {
    throw parseError(err, ctx);
  }
}

/** A parse that found no element fails PP_PARSE_NO_TEXT. */
export function checkedOutput(output: ParseOutput, ctx: Pick<ParseContext, 'fileName'>): ParseOutput {
  if (output.elements.length === 0) {
    throw createError('PP_PARSE_NO_TEXT', `${ctx.fileName} contains no text to index (it is blank or whitespace only).`);
  }
  return output;
}

/** What a parser threw, as the PinpointError the caller sees. */
export function parseError(err: unknown, ctx: Pick<ParseContext, 'fileName' | 'format'>): PinpointError {
  if (err instanceof PinpointError) return err;
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return createError(
      'PP_PARSE_CORRUPT',
      `${ctx.fileName} nests its content deeper than the .${ctx.format} reader can follow; it was not read.`,
      err,
    );
  }
  return createError(
    'PP_PARSE_CORRUPT',
    `${ctx.fileName} could not be read as a .${ctx.format} file; it may be damaged. Re-export or re-save it and upload it again.`,
    err,
  );
}
