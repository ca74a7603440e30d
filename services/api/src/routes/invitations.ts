import type { Invitation } from '@pinpoint/core';
import {
  createdInvitationResponseSchema,
  createError,
  invitationPreviewSchema,
  invitationsResponseSchema,
  roleSchema,
  sessionResponseSchema,
} from '@pinpoint/core';
import { publicLink } from '@pinpoint/mcp';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RouteContext } from '../context.js';
import { collectionParams, errorResponse } from '../schemas.js';
import { callerOf, perUserLimit, SESSION_COOKIE } from '../security.js';
import { startSession } from '../session-cookie.js';

const tokenBody = z.object({ token: z.string().min(1).max(200) });
const invitationParams = collectionParams.extend({ invitationId: z.string().min(1).max(200) });

/** The link an invitee opens: the SPA's accept page under the public URL. */
const invitationLink = (publicUrl: string, token: string): string => publicLink(publicUrl, `/invite/${token}`);

/**
 * Invitations (docs/security.md): a collection's admins invite by email and role and get a one-time
 * link (no mail is sent); the invitee previews and accepts it without an account, and is signed in.
 */
export const invitationRoutes: FastifyPluginAsyncZod<{ ctx: RouteContext }> = async (app, { ctx }) => {
  const { invitations, identity, config } = ctx;
  const authOn = () => {
    if (!config.auth.enabled)
      throw createError('PP_VALIDATION', 'With PINPOINT_AUTH=off there are no users to invite; turn auth on first.');
  };
  const publicLimited = { public: true, ...perUserLimit(config.auth.rateLimits.login, 'address') };

  app.post(
    '/api/collections/:collectionId/invitations',
    {
      schema: {
        tags: ['members'],
        description:
          'Collection admins: invites an email with a role. The one-time link is in this response only (no e-mail is sent); it expires after PINPOINT_INVITE_TTL_HOURS. An earlier pending invitation of the email to the collection is revoked.',
        params: collectionParams,
        body: z.object({ email: z.string().trim().min(3).max(320), role: roleSchema }),
        response: { 201: createdInvitationResponseSchema, 404: errorResponse, 409: errorResponse },
      },
    },
    async (req, reply) => {
      authOn();
      const created = await invitations.create(callerOf(req), req.params.collectionId, req.body.email, req.body.role);
      return reply.code(201).send({ invitation: created.invitation, url: invitationLink(config.publicUrl, created.token) });
    },
  );

  app.get(
    '/api/collections/:collectionId/invitations',
    {
      schema: {
        tags: ['members'],
        description: 'Collection admins: the pending invitations (not used, revoked or expired), newest first.',
        params: collectionParams,
        response: { 200: invitationsResponseSchema, 404: errorResponse },
      },
    },
    async (req): Promise<{ invitations: Invitation[] }> => ({
      invitations: await invitations.list(callerOf(req), req.params.collectionId),
    }),
  );

  app.delete(
    '/api/collections/:collectionId/invitations/:invitationId',
    {
      schema: {
        tags: ['members'],
        description: 'Collection admins: revokes a pending invitation of this collection; its link stops working.',
        params: invitationParams,
        response: { 204: z.null().describe('Done.'), 404: errorResponse },
      },
    },
    async (req, reply) => {
      await invitations.revoke(callerOf(req), req.params.collectionId, req.params.invitationId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/invitations/preview',
    {
      config: publicLimited,
      schema: {
        tags: ['auth'],
        description:
          'What an invitation link offers (collection, role, inviter, whether the email has an account). The token travels in the body, never in a URL the logs keep.',
        body: tokenBody,
        response: { 200: invitationPreviewSchema, 404: errorResponse },
      },
    },
    async (req) => {
      authOn();
      return invitations.preview(req.body.token);
    },
  );

  app.post(
    '/api/invitations/accept',
    {
      config: publicLimited,
      schema: {
        tags: ['auth'],
        description:
          'Accepts an invitation once and signs the invitee in (session cookie, as login). A new email sets its password; an existing account gives its password (or is the signed-in user). PP_INVITATION_INVALID for any link that cannot be used.',
        body: tokenBody.extend({ password: z.string().min(1).max(1024).optional() }),
        response: { 200: sessionResponseSchema, 400: errorResponse, 401: errorResponse, 404: errorResponse },
      },
    },
    async (req, reply) => {
      authOn();
      const previous = req.cookies[SESSION_COOKIE];
      const user = await invitations.accept(req.body.token, { password: req.body.password, principal: req.principal });
      return startSession(req, reply, await identity.openSession(user, previous));
    },
  );
};
