import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { createError } from '@pinpoint/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteContext } from '../context.js';

/**
 * Scripts only from our origin, no inline script, no eval, no plugins; pdf.js runs its worker from
 * a blob: or our origin and compiles its WebAssembly decoders (JPEG 2000, ICC colour) from our
 * origin, which needs 'wasm-unsafe-eval' (WebAssembly only: JavaScript eval stays forbidden).
 */
const CONTENT_SECURITY_POLICY = [
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

/** The built SPA (web/dist) with index.html for client-side routes; unknown /api paths answer PP_NOT_FOUND. */
export const spaRoutes: FastifyPluginAsyncZod<{ ctx: RouteContext }> = async (app, { ctx }) => {
  const root = ctx.config.webDist;
  const hasSpa = existsSync(join(root, 'index.html'));
  app.addHook('onSend', async (_req, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    return payload;
  });
  if (hasSpa) await app.register(fastifyStatic, { root, wildcard: false, index: ['index.html'] });
  app.setNotFoundHandler(async (req, reply) => {
    if (req.url.startsWith('/api/') || req.method !== 'GET' || !hasSpa) {
      throw createError('PP_NOT_FOUND', `No route ${req.method} ${req.url.split('?')[0]}.`);
    }
    return reply.type('text/html; charset=utf-8').sendFile('index.html');
  });
};
