import { feedbackVerdictSchema, historyEntrySchema, historyResponseSchema } from '@pinpoint/core';
import { feedbackJsonl } from '@pinpoint/engine';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RouteContext } from '../context.js';
import { bytesResponse, errorResponse } from '../schemas.js';
import { callerOf } from '../security.js';

const historyParams = z.object({ historyId: z.string().min(1).max(200) });

/** Each user's question history and their feedback on answers; the admins' export of it as eval data. */
export const historyRoutes: FastifyPluginAsyncZod<{ ctx: RouteContext }> = async (app, { ctx }) => {
  const { guarded } = ctx;

  app.get(
    '/api/history',
    {
      schema: {
        tags: ['history'],
        description:
          "The caller's own questions, newest first, each with its answer and citations as given; citations to what the caller can no longer read are left out, and then the answer text too (`withheld`).",
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).optional() }),
        response: { 200: historyResponseSchema },
      },
    },
    async (req) => ({
      entries: await guarded.listHistory(callerOf(req), req.query.limit ? { limit: req.query.limit } : {}),
    }),
  );

  app.get(
    '/api/history/:historyId',
    { schema: { tags: ['history'], params: historyParams, response: { 200: historyEntrySchema, 404: errorResponse } } },
    async (req) => guarded.getHistory(callerOf(req), req.params.historyId),
  );

  app.put(
    '/api/history/:historyId/feedback',
    {
      schema: {
        tags: ['history'],
        description:
          'Feedback on one of your answers (helpful, wrong_citation, should_have_refused) with an optional note; replaces the previous one.',
        params: historyParams,
        body: z.object({ verdict: feedbackVerdictSchema, note: z.string().trim().max(2000).optional() }),
        response: { 200: historyEntrySchema, 400: errorResponse, 404: errorResponse },
      },
    },
    async (req) =>
      guarded.setFeedback(callerOf(req), req.params.historyId, req.body.verdict, req.body.note ? req.body.note : null),
  );

  app.get(
    '/api/admin/feedback.jsonl',
    {
      schema: {
        tags: ['history'],
        description:
          'Instance admins: every judged answer as one line of questions.jsonl in the eval format (DESIGN.md §6), with the verdict, note and answer under `feedback`.',
        response: { 200: bytesResponse, 404: errorResponse },
      },
    },
    async (req, reply) => {
      const body = feedbackJsonl(await guarded.exportFeedback(callerOf(req)));
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', 'attachment; filename="feedback.jsonl"')
        .send(Buffer.from(body, 'utf8'));
    },
  );
};
