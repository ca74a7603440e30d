import { createError, PinpointError } from '@pinpoint/core';

export interface RetryOptions {
  /** Attempts in total, the first included. */
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal | undefined;
  /** Source of jitter in [0, 1); injectable so tests are deterministic. */
  random?: () => number;
}

const RETRYABLE = new Set(['PP_PROVIDER_RATE_LIMITED', 'PP_PROVIDER_UNAVAILABLE']);

/** The provider error a status code stands for (429 → rate limited, 5xx/408 → unavailable). */
export function providerErrorForStatus(status: number, what: string, cause?: unknown): PinpointError {
  if (status === 429)
    return createError(
      'PP_PROVIDER_RATE_LIMITED',
      `${what} is rate limited (HTTP 429); lower the request rate or raise the quota`,
      cause,
    );
  if (status === 408 || status >= 500)
    return createError('PP_PROVIDER_UNAVAILABLE', `${what} failed with HTTP ${status}; check that the service is up`, cause);
  return createError(
    'PP_PROVIDER_BAD_RESPONSE',
    `${what} rejected the request with HTTP ${status}; check the model name and API key`,
    cause,
  );
}

/** Network failures (no HTTP status at all) become PP_PROVIDER_UNAVAILABLE. */
export function toProviderError(err: unknown, what: string): PinpointError {
  if (err instanceof PinpointError) return err;
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return providerErrorForStatus(status, what, err);
  if ((err as { name?: string } | null)?.name === 'AbortError') throw err;
  return createError('PP_PROVIDER_UNAVAILABLE', `${what} is unreachable: ${(err as Error)?.message ?? String(err)}`, err);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `fn`, retrying rate-limit and unavailability errors with exponential backoff and full jitter.
 * `fn` must throw PinpointErrors (see toProviderError); the last one is rethrown when attempts run out.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 5;
  const base = options.baseDelayMs ?? 500;
  const max = options.maxDelayMs ?? 20_000;
  const random = options.random ?? Math.random;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      const retryable = err instanceof PinpointError && RETRYABLE.has(err.code);
      if (!retryable || attempt >= attempts) throw err;
      const cap = Math.min(max, base * 2 ** (attempt - 1));
      await sleep(cap / 2 + (random() * cap) / 2, options.signal);
    }
  }
}
