import type { ServerResponse } from 'node:http';
import type { ErrorCode } from '@pinpoint/core';
import { createError, errorCodes, PinpointError, toPinpointError } from '@pinpoint/core';
import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

const BY_STATUS: Record<number, ErrorCode> = {
  401: 'PP_UNAUTHORIZED',
  429: 'PP_RATE_LIMITED',
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

/** 5xx codes whose name tells the client something it can act on (retry later, ask the operator). */
const OPERATIONAL = new Set<ErrorCode>([
  'PP_DEPENDENCY_MISSING',
  'PP_PROVIDER_UNAVAILABLE',
  'PP_PROVIDER_BAD_RESPONSE',
  'PP_STORE_UNAVAILABLE',
]);

/**
 * What the client sees of an error: 4xx as they are; 5xx never carry internal text (SQL, paths) —
 * PP_INTERNAL (or an operational code) with a generic message and the request id, whose log line
 * holds the detail.
 */
function publicError(e: PinpointError, requestId: string): { code: ErrorCode; message: string; request_id: string } {
  if (e.status < 500) return { code: e.code, message: e.message, request_id: requestId };
  const code: ErrorCode = OPERATIONAL.has(e.code) ? e.code : 'PP_INTERNAL';
  const message = `${OPERATIONAL.has(e.code) ? errorCodes[e.code].doc : 'Something went wrong on the server.'} Request id ${requestId}.`;
  return { code, message, request_id: requestId };
}

/** One error handler for the whole API: `{ error: { code, message, request_id } }` with the code's HTTP status. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const e = asPinpointError(err);
    if (e.status >= 500) request.log.error({ err, code: e.code, reqId: request.id }, e.message);
    return reply.code(e.status).send({ error: publicError(e, request.id) });
  });
}

/**
 * An error after an event stream began (its 200 is sent): logged as the error handler logs a
 * request's, then told to the client as an `error` event with the code and message.
 */
export function sendStreamError(log: FastifyBaseLogger, raw: ServerResponse, err: unknown, requestId: string): void {
  const e = asPinpointError(err);
  if (e.status >= 500) log.error({ err, code: e.code, reqId: requestId }, `event stream failed: ${e.message}`);
  else log.warn({ code: e.code }, `event stream failed: ${e.message}`);
  if (raw.writableEnded || raw.destroyed) return;
  raw.write(`event: error\ndata: ${JSON.stringify({ type: 'error', error: publicError(e, requestId) })}\n\n`);
}
