import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createError } from '@pinpoint/core';

/** Signed, expiring download URLs: HMAC-SHA256 over the version id and the expiry. */
export class UrlSigner {
  readonly #secret: string;
  readonly #ttlSeconds: number;

  constructor(secret: string, ttlSeconds: number) {
    this.#secret = secret;
    this.#ttlSeconds = ttlSeconds;
  }

  #sig(versionId: string, expires: number): string {
    return createHmac('sha256', this.#secret).update(`download\u0000${versionId}\u0000${expires}`).digest('hex');
  }

  sign(versionId: string, nowMs = Date.now()): { url: string; expires_at: string } {
    const expires = Math.floor(nowMs / 1000) + this.#ttlSeconds;
    const url = `/api/download/${encodeURIComponent(versionId)}?expires=${expires}&sig=${this.#sig(versionId, expires)}`;
    return { url, expires_at: new Date(expires * 1000).toISOString() };
  }

  verify(versionId: string, expires: number, sig: string, nowMs = Date.now()): void {
    const expected = Buffer.from(this.#sig(versionId, expires), 'hex');
    const given = Buffer.from(sig, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw createError('PP_UNAUTHORIZED', 'The download link is not valid; ask for a new one.');
    }
    if (expires * 1000 < nowMs) throw createError('PP_UNAUTHORIZED', 'The download link has expired; ask for a new one.');
  }
}

/**
 * The signing secret of a data folder: the configured one, else one generated once into
 * `signing.key`, so the server and the CLI on the same folder sign links the other accepts, and
 * links survive restarts.
 */
export function signingSecretIn(dataDir: string, configured?: string): string {
  if (configured) return configured;
  const path = join(dataDir, 'signing.key');
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(path, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // another process on the same folder wrote it first: use theirs
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return readFileSync(path, 'utf8').trim();
}
