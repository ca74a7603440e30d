import { auditResponseSchema, createError, membershipSchema, membersResponseSchema, roleSchema } from '@pinpoint/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RouteContext } from '../context.js';
import { errorResponse } from '../schemas.js';
import { callerOf } from '../security.js';

const memberParams = z.object({ collectionId: z.string().min(1).max(200), userId: z.string().min(1).max(200) });

/** Collection members (collection admins and instance admins) and the audit log. */
export const memberRoutes: FastifyPluginAsyncZod<{ ctx: RouteContext }> = async (app, { ctx }) => {
  const { guarded } = ctx;

  app.get(
    '/api/collections/:collectionId/members',
    {
      schema: {
        tags: ['members'],
        params: z.object({ collectionId: z.string().min(1).max(200) }),
        response: { 200: membersResponseSchema, 404: errorResponse },
      },
    },
    async (req) => ({ members: await guarded.listMembers(callerOf(req), req.params.collectionId) }),
  );

  app.get(
    '/api/collections/:collectionId/members/:userId',
    { schema: { tags: ['members'], params: memberParams, response: { 200: membershipSchema, 404: errorResponse } } },
    async (req) => {
      const members = await guarded.listMembers(callerOf(req), req.params.collectionId);
      const m = members.find((x) => x.user_id === req.params.userId);
      if (!m) throw createError('PP_NOT_FOUND', `User ${req.params.userId} is not a member.`);
      return m;
    },
  );

  app.put(
    '/api/collections/:collectionId/members/:userId',
    {
      schema: {
        tags: ['members'],
        params: memberParams,
        body: z.object({ role: roleSchema }),
        response: { 200: membershipSchema, 404: errorResponse },
      },
    },
    async (req) => guarded.setMember(callerOf(req), req.params.collectionId, req.params.userId, req.body.role),
  );

  app.delete(
    '/api/collections/:collectionId/members/:userId',
    { schema: { tags: ['members'], params: memberParams, response: { 204: z.null().describe('Done.'), 404: errorResponse } } },
    async (req, reply) => {
      await guarded.removeMember(callerOf(req), req.params.collectionId, req.params.userId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/audit',
    {
      schema: {
        tags: ['members'],
        description:
          'Uploads, downloads, member changes and token creation, newest first: instance admins, or a collection admin for theirs.',
        querystring: z.object({
          collection_id: z.string().optional(),
          limit: z.coerce.number().int().min(1).max(1000).optional(),
        }),
        response: { 200: auditResponseSchema, 404: errorResponse },
      },
    },
    async (req) => ({
      entries: await guarded.listAudit(callerOf(req), {
        ...(req.query.collection_id ? { collectionId: req.query.collection_id } : {}),
        ...(req.query.limit ? { limit: req.query.limit } : {}),
      }),
    }),
  );
};
