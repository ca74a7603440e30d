import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { createError } from '@pinpoint/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteContext } from '../context.js';

/** The built SPA (web/dist) with index.html for client-side routes; unknown /api paths answer PP_NOT_FOUND. */
export const spaRoutes: FastifyPluginAsyncZod<{ ctx: RouteContext }> = async (app, { ctx }) => {
  const root = ctx.config.webDist;
  const hasSpa = existsSync(join(root, 'index.html'));
  if (hasSpa) await app.register(fastifyStatic, { root, wildcard: false, index: ['index.html'] });
  app.setNotFoundHandler(async (req, reply) => {
    if (req.url.startsWith('/api/') || req.method !== 'GET' || !hasSpa) {
      throw createError('PP_NOT_FOUND', `No route ${req.method} ${req.url.split('?')[0]}.`);
    }
    return reply.type('text/html; charset=utf-8').sendFile('index.html');
  });
};
