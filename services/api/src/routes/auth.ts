import type { Principal, User } from '@pinpoint/core';
import {
  createdTokenResponseSchema,
  createError,
  sessionResponseSchema,
  tokensResponseSchema,
  usersResponseSchema,
} from '@pinpoint/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { credentialsBody } from '../access-schemas.js';
import type { RouteContext } from '../context.js';
import { errorResponse } from '../schemas.js';
import { callerOf, perUserLimit, SESSION_COOKIE } from '../security.js';
import { startSession } from '../session-cookie.js';

const userOnly = (p: Principal): Extract<Principal, { kind: 'user' }> => {
  if (p.kind !== 'user') throw createError('PP_VALIDATION', 'With PINPOINT_AUTH=off there are no users; turn auth on first.');
  return p;
};

/** Users, sessions (cookie), first-admin setup and personal API tokens. */
export const authRoutes: FastifyPluginAsyncZod<{ ctx: RouteContext }> = async (app, { ctx }) => {
  const { identity, guarded, config } = ctx;

  app.get(
    '/api/auth/session',
    { config: { public: true }, schema: { tags: ['auth'], response: { 200: sessionResponseSchema } } },
    async (req) => {
      if (!config.auth.enabled) return { auth: 'off' as const, user: null, csrf_token: null, needs_setup: false };
      const p = req.principal;
      const user: User | null = p?.kind === 'user' ? await guarded.access.getUser(p.user_id) : null;
      return { auth: 'on' as const, user, csrf_token: req.sessionCsrf, needs_setup: await identity.needsSetup() };
    },
  );

  app.post(
    '/api/auth/login',
    {
      config: { public: true, ...perUserLimit(config.auth.rateLimits.login, 'login') },
      schema: { tags: ['auth'], body: credentialsBody, response: { 200: sessionResponseSchema, 401: errorResponse } },
    },
    async (req, reply) => {
      if (!config.auth.enabled) throw createError('PP_VALIDATION', 'Sign-in is off (PINPOINT_AUTH=off).');
      return startSession(req, reply, await identity.login(req.body.email, req.body.password, req.cookies[SESSION_COOKIE]));
    },
  );

  app.post(
    '/api/auth/setup',
    {
      config: { public: true, ...perUserLimit(config.auth.rateLimits.login, 'login') },
      schema: {
        tags: ['auth'],
        description: 'Creates the first instance admin of a fresh instance and signs them in; 409 once any user exists.',
        body: credentialsBody,
        response: { 200: sessionResponseSchema, 409: errorResponse },
      },
    },
    async (req, reply) => {
      if (!config.auth.enabled) throw createError('PP_VALIDATION', 'Sign-in is off (PINPOINT_AUTH=off).');
      await identity.setupFirstAdmin(req.body.email, req.body.password);
      return startSession(req, reply, await identity.login(req.body.email, req.body.password));
    },
  );

  app.post('/api/auth/logout', { config: { public: true }, schema: { tags: ['auth'] } }, async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    if (token) await identity.logout(token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.code(204).send();
  });

  app.get('/api/auth/tokens', { schema: { tags: ['auth'], response: { 200: tokensResponseSchema } } }, async (req) => ({
    tokens: await identity.listTokens(userOnly(callerOf(req)).user_id),
  }));

  app.post(
    '/api/auth/tokens',
    {
      schema: {
        tags: ['auth'],
        description: 'A personal API token (Authorization: Bearer …); the secret is in this response only.',
        body: z.object({ name: z.string().trim().min(1).max(100) }),
        response: { 201: createdTokenResponseSchema },
      },
    },
    async (req, reply) => {
      const caller = userOnly(callerOf(req));
      const created = await identity.createToken(caller.user_id, req.body.name);
      await guarded.audit(caller, {
        action: 'token.create',
        collection_id: null,
        target: created.info.token_id,
        detail: { name: created.info.name },
      });
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/api/auth/tokens/:tokenId',
    {
      schema: {
        tags: ['auth'],
        params: z.object({ tokenId: z.string().min(1).max(100) }),
        response: { 204: z.null().describe('Done.'), 404: errorResponse },
      },
    },
    async (req, reply) => {
      const caller = userOnly(callerOf(req));
      await identity.revokeToken(req.params.tokenId, caller.admin ? undefined : caller.user_id);
      await guarded.audit(caller, { action: 'token.revoke', collection_id: null, target: req.params.tokenId, detail: {} });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/users',
    {
      schema: {
        tags: ['auth'],
        description: 'Instance admins: every user. Others: the user with exactly that email (to add as a member), if any.',
        querystring: z.object({ email: z.string().max(320).optional() }),
        response: { 200: usersResponseSchema },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const email = req.query.email?.trim();
      if (email) {
        const found = await guarded.access.findUserByEmail(email);
        return { users: found ? [found.user] : [] };
      }
      if (caller.kind === 'user' && !caller.admin) return { users: [] };
      return { users: await guarded.access.listUsers() };
    },
  );
};
