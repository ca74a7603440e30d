import type { ServerResponse } from 'node:http';
import type { ErrorCode } from '@pinpoint/core';
import { createError, PinpointError, toPinpointError } from '@pinpoint/core';
import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

const BY_STATUS: Record<number, ErrorCode> = {
  401: 'PP_UNAUTHORIZED',
  404: 'PP_NOT_FOUND',
  413: 'PP_FILE_TOO_LARGE',
  415: 'PP_UNSUPPORTED_MEDIA_TYPE',
};

/** Any error → a PinpointError: ours as they are, request errors by their status, the rest PP_INTERNAL. */
function asPinpointError(err: unknown): PinpointError {
  if (err instanceof PinpointError) return err;
  if (hasZodFastifySchemaValidationErrors(err)) {
    const first = err.validation[0];
    const where = first?.instancePath ? ` at ${first.instancePath}` : '';
    return createError('PP_VALIDATION', `Invalid request${where}: ${first?.message ?? err.message}`, err);
  }
  const status = (err as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return createError(BY_STATUS[status] ?? 'PP_VALIDATION', (err as Error).message, err);
  }
  return toPinpointError(err);
}

/** One error handler for the whole API: `{ error: { code, message } }` with the code's HTTP status. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const e = asPinpointError(err);
    if (e.status >= 500) request.log.error({ err, code: e.code }, e.message);
    return reply.code(e.status).send({ error: { code: e.code, message: e.message } });
  });
}

/**
 * An error after an event stream began (its 200 is sent): logged as the error handler logs a
 * request's, then told to the client as an `error` event with the code and message.
 */
export function sendStreamError(log: FastifyBaseLogger, raw: ServerResponse, err: unknown): void {
  const e = asPinpointError(err);
  if (e.status >= 500) log.error({ err, code: e.code }, `event stream failed: ${e.message}`);
  else log.warn({ code: e.code }, `event stream failed: ${e.message}`);
  if (raw.writableEnded || raw.destroyed) return;
  raw.write(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { code: e.code, message: e.message } })}\n\n`);
}
