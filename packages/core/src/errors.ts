/**
 * The one table of error codes. Each code is stable, has an HTTP status where it reaches the API,
 * a message a person can act on, and whether retrying can help (queues decide by it).
 */
export const errorCodes = {
  PP_VALIDATION: { status: 400, retryable: false, doc: 'The request is malformed; the message names the field.' },
  PP_NOT_FOUND: { status: 404, retryable: false, doc: 'The collection, document, version, job or citation does not exist.' },
  PP_ARTIFACT_HASH_MISMATCH: {
    status: 409,
    retryable: false,
    doc: 'A stored artifact no longer matches its recorded sha256; the reader refuses to guess.',
  },
  PP_CONFLICT: {
    status: 409,
    retryable: false,
    doc: 'The action conflicts with the current state (e.g. cancelling a finished job).',
  },
  PP_FILE_TOO_LARGE: { status: 413, retryable: false, doc: 'The upload exceeds the configured size limit.' },
  PP_UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    retryable: false,
    doc: "The request's Content-Type is not one the route accepts (JSON, or multipart/form-data for uploads).",
  },
  PP_UNSUPPORTED_FORMAT: {
    status: 415,
    retryable: false,
    doc: 'The file extension or content is not one of the supported formats.',
  },
  PP_EMPTY_FILE: { status: 422, retryable: false, doc: 'The file has zero bytes.' },
  PP_FORMAT_MISMATCH: {
    status: 422,
    retryable: false,
    doc: 'The content does not match the extension (e.g. a .pdf that is HTML).',
  },
  PP_PARSE_ENCRYPTED_PDF: { status: 422, retryable: false, doc: 'The PDF needs a password to open.' },
  PP_PARSE_ENCRYPTED_OFFICE: { status: 422, retryable: false, doc: 'The Office file is password-protected.' },
  PP_PARSE_NO_TEXT: { status: 422, retryable: false, doc: 'No text could be extracted (no text layer and no OCR result).' },
  PP_PARSE_CORRUPT: { status: 422, retryable: false, doc: 'The file is truncated or corrupt and cannot be parsed.' },
  PP_PARSE_TIMEOUT: { status: 422, retryable: false, doc: 'Parsing exceeded the time limit.' },
  PP_PARSE_MEMORY: { status: 422, retryable: false, doc: 'Parsing exceeded the memory limit.' },
  PP_PARSE_CRASHED: { status: 500, retryable: true, doc: 'The isolated parser process exited unexpectedly.' },
  PP_ZIP_BOMB: { status: 422, retryable: false, doc: 'The archive expands beyond the size or entry-count limits.' },
  PP_IMAGE_TOO_LARGE: { status: 422, retryable: false, doc: 'The image exceeds the pixel-count limit.' },
  PP_TOO_MANY_PAGES: {
    status: 422,
    retryable: false,
    doc: 'The file has more pages than one upload may hold (a multi-page TIFF).',
  },
  PP_CONVERSION_FAILED: { status: 422, retryable: false, doc: 'Converting the file with LibreOffice failed.' },
  PP_DEPENDENCY_MISSING: {
    status: 503,
    retryable: false,
    doc: 'A tool the format needs (LibreOffice, OCR data) is not installed; install it, then re-process the version.',
  },
  PP_JOB_CANCELLED: { status: 409, retryable: false, doc: 'The job was cancelled.' },
  PP_PROVIDER_RATE_LIMITED: { status: 429, retryable: true, doc: 'The embedding or generation provider asked us to slow down.' },
  PP_PROVIDER_UNAVAILABLE: {
    status: 503,
    retryable: true,
    doc: 'The embedding or generation provider is unreachable or failing.',
  },
  PP_PROVIDER_BAD_RESPONSE: { status: 502, retryable: false, doc: 'The provider answered with something we cannot use.' },
  PP_CONFIG_INVALID: { status: 500, retryable: false, doc: 'The configuration is invalid; the message names the setting.' },
  PP_UNAUTHORIZED: { status: 401, retryable: false, doc: 'Sign in, or send a valid API token or signed URL.' },
  PP_FORBIDDEN_ORIGIN: {
    status: 403,
    retryable: false,
    doc: 'A state-changing request came from a foreign Origin, or without the CSRF token of its cookie session.',
  },
  PP_MISDIRECTED_HOST: {
    status: 421,
    retryable: false,
    doc: 'The Host header is not one of PINPOINT_ALLOWED_HOSTS (protects against DNS rebinding).',
  },
  PP_INVITATION_INVALID: {
    status: 404,
    retryable: false,
    doc: 'The invitation link cannot be used: it is unknown, expired, already used or revoked (one answer for all); ask for a new link.',
  },
  PP_RATE_LIMITED: { status: 429, retryable: true, doc: 'Too many logins, uploads or questions from this user; wait and retry.' },
  PP_STORE_UNAVAILABLE: {
    status: 503,
    retryable: true,
    doc: 'A store (PostgreSQL, Redis, Qdrant, the object store) did not answer or refused for a passing reason.',
  },
  PP_DISK_FULL: {
    status: 507,
    retryable: false,
    doc: 'The disk holding the data is full (or below PINPOINT_MIN_FREE_MB free); the message says where and how much is left. Free space, then Retry the job or upload again.',
  },
  PP_UPLOAD_INTERRUPTED: {
    status: 500,
    retryable: false,
    doc: 'The process stopped while the upload was being stored, before the original was kept; upload the file again.',
  },
  PP_INTERNAL: {
    status: 500,
    retryable: false,
    doc: 'An unexpected error (a defect: running it again fails again); the response carries a request id, the details are in the server log.',
  },
} as const satisfies Record<string, { status: number; retryable: boolean; doc: string }>;

export type ErrorCode = keyof typeof errorCodes;

/** The text of a library's exception: for logs and admin diagnostics, never for a user-facing message. */
function causeText(cause: unknown): string | undefined {
  if (cause === undefined || cause === null) return undefined;
  if (cause instanceof PinpointError) return cause.detail;
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  return String(cause);
}

export class PinpointError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  /** What the underlying library said (its raw text), for the log and the job's diagnostics only. */
  readonly detail: string | undefined;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; detail?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PinpointError';
    this.code = code;
    this.status = errorCodes[code].status;
    this.retryable = errorCodes[code].retryable;
    this.detail = options?.detail ?? causeText(options?.cause);
  }
}

/** `message` is our own sentence; the cause's text is kept apart as `detail`. */
export function createError(code: ErrorCode, message: string, cause?: unknown): PinpointError {
  return new PinpointError(code, message, cause === undefined ? undefined : { cause });
}

/** Whether a thrown value is a write refused for lack of space (before or after toPinpointError). */
export function isDiskFull(err: unknown): boolean {
  return toPinpointError(err).code === 'PP_DISK_FULL';
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(errorCodes, value);
}

/**
 * Codes of errors that pass: Node's network errors and PostgreSQL's connection and shutdown states
 * (SQLSTATE classes 08 and 57P, too many connections).
 */
const TRANSIENT = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|08\w{3}|57P0[123]|53300)$/;

/** A lost connection reported without a code (ioredis: "Connection is closed."; pg: "Connection terminated …"). */
const CONNECTION_LOST =
  /^(Connection is closed|Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/** A write refused for lack of space: Node's ENOSPC (EDQUOT: over quota), SQLite's SQLITE_FULL. */
const DISK_FULL = /^(ENOSPC|EDQUOT|SQLITE_FULL)$/;

/**
 * Any thrown value as a PinpointError: ours as they are, a full disk PP_DISK_FULL, network and
 * connection failures PP_STORE_UNAVAILABLE (retried), anything else PP_INTERNAL.
 */
export function toPinpointError(err: unknown): PinpointError {
  if (err instanceof PinpointError) return err;
  const code = err && typeof err === 'object' && 'code' in err && typeof err.code === 'string' ? err.code : '';
  const message = err instanceof Error ? err.message : String(err);
  if (isErrorCode(code)) return createError(code, message || code, err);
  if (DISK_FULL.test(code)) {
    const path = err && typeof err === 'object' && 'path' in err && typeof err.path === 'string' ? ` writing ${err.path}` : '';
    return createError('PP_DISK_FULL', `The disk is full${path} (${code}); free space, then retry.`, err);
  }
  if (TRANSIENT.test(code)) return createError('PP_STORE_UNAVAILABLE', `${code}: ${message}`, err);
  if (!code && CONNECTION_LOST.test(message)) return createError('PP_STORE_UNAVAILABLE', message, err);
  return createError('PP_INTERNAL', message, err);
}
