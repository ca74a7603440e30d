import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Principal } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import { createPinpointMcpServer } from '@pinpoint/mcp';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteContext } from '../context.js';
import { callerOf, perUserLimit } from '../security.js';

/** The MCP caller: an API token with auth on (a cookie session is the SPA's, not an agent's), the local user with it off. */
function mcpCaller(req: FastifyRequest, ctx: RouteContext): Principal {
  if (ctx.config.auth.enabled && req.sessionCsrf !== null)
    throw createError('PP_UNAUTHORIZED', 'The MCP endpoint takes an API token (Authorization: Bearer …), not a session.');
  return callerOf(req);
}

/** The request as the SDK's web-standard transport reads it (the body is already parsed by Fastify). */
function webRequest(req: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://${req.host}${req.url}`, { method: req.method, headers });
}

/**
 * The MCP server over Streamable HTTP at /mcp, stateless: each POST carries its JSON-RPC message(s)
 * and is answered with JSON by a server made for that request's caller, so any replica can answer.
 * It goes through the security plugin (Host, Origin, token, headers) and the ask rate limit.
 */
export const mcpRoutes: FastifyPluginAsync<{ ctx: RouteContext }> = async (app, { ctx }) => {
  app.post('/mcp', { config: perUserLimit(ctx.config.auth.rateLimits.ask), schema: { hide: true } }, async (req, reply) => {
    const principal = mcpCaller(req, ctx);
    const server = createPinpointMcpServer(
      { guarded: ctx.guarded, principal, publicUrl: ctx.config.publicUrl, signer: ctx.signer },
      { log: (message, err) => req.log.error({ err, code: err.code }, message) },
    );
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(webRequest(req), { parsedBody: req.body });
      reply.code(response.status);
      response.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      return reply.header('cache-control', 'no-store').send(await response.text());
    } finally {
      await server.close();
    }
  });

  // Stateless: there is no server-initiated stream to open and no session to end.
  const notAllowed = async (_req: unknown, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ jsonrpc: '2.0', error: { code: -32000, message: 'The MCP endpoint takes POST only (stateless).' }, id: null });
  app.get('/mcp', { schema: { hide: true } }, notAllowed);
  app.delete('/mcp', { schema: { hide: true } }, notAllowed);
};
