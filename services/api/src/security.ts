import { randomUUID, timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { Principal } from '@pinpoint/core';
import { createError, LOCAL_PRINCIPAL } from '@pinpoint/core';
import type { Identity } from '@pinpoint/engine';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from './config.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling: set for every request before any handler; null only on public routes. */
    principal: Principal | null;
    /** The CSRF token of the cookie session that authenticated the request (null for tokens). */
    sessionCsrf: string | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a principal (health, login, setup, signed downloads). */
    public?: boolean;
  }
}

export const SESSION_COOKIE = 'pp_session';
const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Scripts only from our origin, no inline script, no eval, no plugins; pdf.js runs its worker from
 * a blob: or our origin and compiles its WebAssembly decoders (JPEG 2000, ICC colour) from our
 * origin, which needs 'wasm-unsafe-eval' (WebAssembly only: JavaScript eval stays forbidden).
 */
const SPA_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "connect-src 'self'",
  "img-src 'self' blob: data:",
  "font-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "worker-src 'self' blob:",
].join('; ');
const API_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** The host name of a Host header or Origin URL, lower-cased, without port or IPv6 brackets. */
function hostNameOf(value: string): string | null {
  try {
    return new URL(`http://${value}`).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return null;
  }
}

function originHost(origin: string): string | null {
  try {
    const u = new URL(origin);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname.replace(/^\[|\]$/g, '').toLowerCase() : null;
  } catch {
    return null;
  }
}

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Host (DNS rebinding) and Origin (cross-site requests) checks: 421 and 403. */
function checkHostAndOrigin(req: FastifyRequest, allowed: Set<string>): void {
  const host = hostNameOf(req.headers.host ?? '');
  if (!host || !allowed.has(host))
    throw createError('PP_MISDIRECTED_HOST', `This server does not answer for host ${req.headers.host ?? '(none)'}.`);
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const from = originHost(origin);
    if (!from || !allowed.has(from)) throw createError('PP_FORBIDDEN_ORIGIN', `Requests from ${origin} are not accepted.`);
  }
  if (req.headers['sec-fetch-site'] === 'cross-site')
    throw createError('PP_FORBIDDEN_ORIGIN', 'Cross-site requests are not accepted.');
}

async function authenticate(req: FastifyRequest, identity: Identity): Promise<void> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (bearer) {
    req.principal = await identity.authenticateToken(bearer);
    if (!req.principal) throw createError('PP_UNAUTHORIZED', 'The API token is not valid or was revoked.');
    return;
  }
  const session = req.cookies[SESSION_COOKIE];
  if (!session) return;
  const found = await identity.authenticateSession(session);
  if (!found) return;
  req.principal = found.principal;
  req.sessionCsrf = found.csrf;
}

function setSecurityHeaders(req: FastifyRequest, reply: FastifyReply): void {
  const api = req.url.startsWith('/api/');
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', api ? API_POLICY : SPA_POLICY);
  if (api && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  reply.header('x-request-id', req.id);
  if (req.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
}

/**
 * One plugin for every route (fastify-plugin: not encapsulated): allowed Hosts, Origin checks on
 * state-changing requests, the caller's principal (session cookie, API token, or the local user
 * with PINPOINT_AUTH=off), 401 for anonymous calls off the public routes, CSRF tokens for cookie
 * sessions, security headers on every response, and per-user rate limits (route config).
 */
export const securityPlugin = fp<{ config: Config; identity: Identity }>(
  async (app, { config, identity }) => {
    const allowed = new Set(config.auth.allowedHosts);
    await app.register(cookie);
    await app.register(rateLimit, {
      global: false,
      errorResponseBuilder: (_req, ctx) => createError('PP_RATE_LIMITED', `Too many requests; retry in ${ctx.after}.`),
    });
    app.decorateRequest('principal', null);
    app.decorateRequest('sessionCsrf', null);
    app.addHook('onRequest', async (req) => {
      checkHostAndOrigin(req, allowed);
      if (!config.auth.enabled) req.principal = LOCAL_PRINCIPAL;
      else await authenticate(req, identity);
      const isPublic = req.routeOptions.config?.public === true || !req.url.startsWith('/api/');
      if (!req.principal && !isPublic) throw createError('PP_UNAUTHORIZED', 'Sign in, or send an API token.');
      // Public routes (sign-in, setup, sign-out) act on no data; the Origin check covers them.
      if (req.sessionCsrf && !isPublic && !SAFE_METHODS.has(req.method)) {
        const given = req.headers[CSRF_HEADER];
        if (typeof given !== 'string' || !sameSecret(given, req.sessionCsrf))
          throw createError('PP_FORBIDDEN_ORIGIN', `A cookie session must send its CSRF token in ${CSRF_HEADER}.`);
      }
    });
    app.addHook('onSend', async (req, reply, payload) => {
      setSecurityHeaders(req, reply);
      return payload;
    });
  },
  { name: 'pinpoint-security' },
);

/** The principal of an authenticated route (the plugin guarantees one off the public routes). */
export function callerOf(req: FastifyRequest): Principal {
  if (!req.principal) throw createError('PP_UNAUTHORIZED', 'Sign in, or send an API token.');
  return req.principal;
}

/** Rate-limit route config: `max` per minute per user (or per address without one, per login email, or per address). */
export function perUserLimit(max: number, key: 'user' | 'login' | 'address' = 'user') {
  return {
    rateLimit: {
      max,
      timeWindow: 60_000,
      hook: 'preHandler' as const,
      keyGenerator: (req: FastifyRequest) => {
        if (key === 'address') return `address:${req.ip}`;
        if (key === 'login') {
          const email = (req.body as { email?: unknown } | undefined)?.email;
          return `login:${typeof email === 'string' ? email.trim().toLowerCase() : req.ip}`;
        }
        const p = req.principal;
        return p?.kind === 'user' ? `user:${p.user_id}` : `ip:${req.ip}`;
      },
    },
  };
}

export const newRequestId = (): string => randomUUID();

/** The secret part of an invitation link (`/invite/pp_inv_…`), kept out of the logs. */
export const redactInviteLink = (url: string): string => url.replace(/\/invite\/[^/?#]+/g, '/invite/[redacted]');

/** A request as the log shows it (Fastify's fields), without the secret of an invitation link. */
export function requestForLog(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactInviteLink(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort ?? 0,
  };
}
