import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ArtifactKind, Principal } from '@pinpoint/core';
import { createError } from '@pinpoint/core';

/** What a signed URL grants: one user, one artifact of one version, until the expiry. */
export interface DownloadGrant {
  userId: string;
  versionId: string;
  kind: ArtifactKind;
  name?: string;
}

/** Who a signed URL speaks for: the user, or `local` with PINPOINT_AUTH=off. */
export const signerId = (p: Principal): string => (p.kind === 'user' ? p.user_id : 'local');

interface Key {
  kid: string;
  secret: string;
}

/** A key's id: a short hash of the secret, so a URL names the key that signed it without revealing it. */
const kidOf = (secret: string): string => createHash('sha256').update(`kid\u0000${secret}`).digest('hex').slice(0, 12);

/**
 * Signed, expiring download URLs: HMAC-SHA256 over (user, version, artifact kind and name, expiry)
 * under the current key; URLs signed with a previous key (rotation) still verify until they expire.
 * The signature proves who asked; the route checks that user's membership again on every use.
 */
export class UrlSigner {
  readonly #keys: Key[];
  readonly #ttlSeconds: number;

  constructor(secret: string, ttlSeconds: number, previous: readonly string[] = []) {
    this.#keys = [secret, ...previous].map((s) => ({ kid: kidOf(s), secret: s }));
    this.#ttlSeconds = ttlSeconds;
  }

  #sig(key: Key, g: DownloadGrant, expires: number): Buffer {
    const fields = ['download/2', key.kid, g.userId, g.versionId, g.kind, g.name ?? '', String(expires)];
    return createHmac('sha256', key.secret).update(fields.join('\u0000')).digest();
  }

  sign(grant: DownloadGrant, nowMs = Date.now()): { url: string; expires_at: string } {
    const key = this.#keys[0] as Key;
    const expires = Math.floor(nowMs / 1000) + this.#ttlSeconds;
    const q = new URLSearchParams({
      artifact: grant.kind,
      ...(grant.name ? { name: grant.name } : {}),
      u: grant.userId,
      expires: String(expires),
      kid: key.kid,
      sig: this.#sig(key, grant, expires).toString('hex'),
    });
    return {
      url: `/api/download/${encodeURIComponent(grant.versionId)}?${q}`,
      expires_at: new Date(expires * 1000).toISOString(),
    };
  }

  /** Throws PP_UNAUTHORIZED unless the signature is ours (any live key) and unexpired. */
  verify(grant: DownloadGrant, expires: number, kid: string, sig: string, nowMs = Date.now()): void {
    const key = this.#keys.find((k) => k.kid === kid);
    const given = Buffer.from(sig, 'hex');
    const expected = key ? this.#sig(key, grant, expires) : Buffer.alloc(32);
    if (!key || given.length !== expected.length || !timingSafeEqual(given, expected)) {
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
