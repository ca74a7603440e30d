import { answerSchema, resolvedCitationResponseSchema, searchResponseSchema } from '@pinpoint/core';
import type { QueryOptions } from '@pinpoint/engine';
import { signerId } from '@pinpoint/engine';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { RouteContext } from '../context.js';
import { sendStreamError } from '../errors.js';
import { askBody, errorResponse, resolveBody, searchBody } from '../schemas.js';
import { callerOf, perUserLimit } from '../security.js';

function queryOptions(body: {
  collection_id?: string | undefined;
  filters?: z.infer<typeof searchBody>['filters'];
  scope?: boolean | undefined;
}): QueryOptions {
  const f = body.filters ?? {};
  return {
    ...(body.collection_id ? { collectionId: body.collection_id } : {}),
    ...(body.scope === false ? { scope: false } : {}),
    filters: {
      ...(f.document_ids ? { document_ids: f.document_ids } : {}),
      ...(f.version_ids ? { version_ids: f.version_ids } : {}),
      ...(f.page_indexes ? { page_indexes: f.page_indexes } : {}),
    },
  };
}

export const queryRoutes: FastifyPluginAsyncZod<{ ctx: RouteContext }> = async (app, { ctx }) => {
  const { guarded } = ctx;
  const askLimit = perUserLimit(ctx.config.auth.rateLimits.ask);

  app.post(
    '/api/search',
    {
      config: askLimit,
      schema: { tags: ['query'], body: searchBody, response: { 200: searchResponseSchema, 400: errorResponse } },
    },
    async (req) =>
      guarded.search(callerOf(req), req.body.query, { ...queryOptions(req.body), ...(req.body.k ? { k: req.body.k } : {}) }),
  );

  app.post(
    '/api/ask',
    { config: askLimit, schema: { tags: ['query'], body: askBody, response: { 200: answerSchema, 400: errorResponse } } },
    async (req) => guarded.ask(callerOf(req), req.body.question, queryOptions(req.body)),
  );

  app.post(
    '/api/ask/stream',
    {
      config: askLimit,
      schema: {
        tags: ['query'],
        description:
          'The ask pipeline as server-sent events: `retrieved`, then with a generator `delta` and `citation`, and always a final `answer` (the answer object).',
        body: askBody,
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const options = queryOptions(req.body);
      if (options.collectionId !== undefined) await guarded.authorize(caller, options.collectionId, 'viewer');
      const controller = new AbortController();
      req.raw.on('close', () => controller.abort());
      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      });
      try {
        for await (const event of guarded.askStream(caller, req.body.question, options)) {
          if (controller.signal.aborted) break;
          reply.raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
        }
      } catch (err) {
        sendStreamError(req.log, reply.raw, err, req.id);
      }
      reply.raw.end();
    },
  );

  app.post(
    '/api/citations/resolve',
    {
      schema: {
        tags: ['query'],
        body: resolveBody,
        response: { 200: resolvedCitationResponseSchema, 404: errorResponse, 409: errorResponse },
      },
    },
    async (req) => {
      const b = req.body;
      const caller = callerOf(req);
      const resolved = await guarded.resolveCitation(caller, {
        version_id: b.version_id,
        ...(b.chunk_id ? { chunk_id: b.chunk_id } : {}),
        ...(b.element_id ? { element_id: b.element_id } : {}),
        ...(b.anchor ? { anchor: b.anchor } : {}),
      });
      return {
        ...resolved,
        download_url: ctx.signer.sign({ userId: signerId(caller), versionId: b.version_id, kind: 'original' }).url,
      };
    },
  );
};
