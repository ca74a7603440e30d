import { collectionSchema, collectionsResponseSchema, createError, uploadResponseSchema } from '@pinpoint/core';
import type { UploadFile } from '@pinpoint/engine';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RouteContext } from '../context.js';
import { collectionParams, errorResponse } from '../schemas.js';
import { callerOf, perUserLimit } from '../security.js';
import { openSpool } from '../spool.js';

export const collectionRoutes: FastifyPluginAsyncZod<{ ctx: RouteContext }> = async (app, { ctx }) => {
  app.get(
    '/api/collections',
    { schema: { tags: ['collections'], response: { 200: collectionsResponseSchema } } },
    async (req) => ({
      collections: await ctx.guarded.listCollections(callerOf(req)),
    }),
  );

  app.post(
    '/api/collections',
    {
      schema: {
        tags: ['collections'],
        body: z.object({ name: z.string().trim().min(1).max(200) }),
        response: { 201: collectionSchema, 400: errorResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await ctx.guarded.createCollection(callerOf(req), req.body.name)),
  );

  app.post(
    '/api/collections/:collectionId/uploads',
    {
      config: perUserLimit(ctx.config.auth.rateLimits.upload),
      schema: {
        tags: ['documents'],
        description: 'multipart/form-data with one or more file parts; each file becomes a version of the document of that name.',
        consumes: ['multipart/form-data'],
        params: collectionParams,
        response: { 201: uploadResponseSchema, 404: errorResponse, 413: errorResponse, 507: errorResponse },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      await ctx.guarded.authorize(caller, req.params.collectionId, 'editor');
      if (!req.isMultipart()) throw createError('PP_VALIDATION', 'Send the files as multipart/form-data.');
      await ctx.engine.checkUploadSpace();
      const spool = await openSpool();
      try {
        const files: UploadFile[] = [];
        for await (const part of req.files()) {
          const spooled = await spool.write(part.file);
          if (part.file.truncated)
            throw createError(
              'PP_FILE_TOO_LARGE',
              `${part.filename} exceeds the limit of ${ctx.config.engine.maxUploadBytes} bytes.`,
            );
          files.push({ name: part.filename, spooled, declaredMime: part.mimetype || null });
        }
        const results = await ctx.guarded.upload(caller, req.params.collectionId, files);
        return reply.code(201).send({ results });
      } finally {
        await spool.remove();
      }
    },
  );
};
