import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { createError } from '@pinpoint/core';

/** scrypt parameters (N=2^15, r=8, p=1: about 32 MiB and tens of ms per check). */
const N = 32768;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAX_MEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export const MIN_PASSWORD_LENGTH = 10;

/** `scrypt$N$r$p$salt$key` (base64url), for the AccessStore. */
export async function hashPassword(password: string): Promise<string> {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw createError('PP_VALIDATION', `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > 1024) throw createError('PP_VALIDATION', 'A password may have at most 1024 characters.');
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time check against a stored hash; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key || password.length > 1024) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a random password: checked against when the email is unknown, so both cases take the same time. */
export const decoyPasswordHash = (): Promise<string> => hashPassword(randomBytes(24).toString('base64url'));
