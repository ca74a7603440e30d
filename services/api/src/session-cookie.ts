import type { SessionInfo } from '@pinpoint/core';
import type { Session } from '@pinpoint/engine';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from './security.js';

/** Sets the session cookie (HttpOnly, SameSite=Lax, Secure over TLS) and answers as the session route does. */
export function startSession(req: FastifyRequest, reply: FastifyReply, session: Session): SessionInfo {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    expires: new Date(session.expires_at),
  });
  return { auth: 'on' as const, user: session.user, csrf_token: session.csrf, needs_setup: false };
}
