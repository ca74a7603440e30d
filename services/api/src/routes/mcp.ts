import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createPinpointMcpServer } from '@pinpoint/mcp';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { RouteContext } from '../context.js';

/**
 * The MCP server over Streamable HTTP at /mcp, stateless: each POST carries its JSON-RPC message(s)
 * and is answered with JSON by a server made for that request's caller, so any replica can answer.
 */
export const mcpRoutes: FastifyPluginAsync<{ ctx: RouteContext }> = async (app, { ctx }) => {
  app.post('/mcp', { schema: { hide: true } }, async (req, reply) => {
    const server = createPinpointMcpServer(
      {
        engine: ctx.engine,
        publicUrl: ctx.config.publicUrl,
        signDownload: (versionId) => ctx.signer.sign(versionId),
      },
      { log: (message, err) => req.log.error({ err, code: err.code }, message) },
    );
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    reply.hijack();
    await transport.handleRequest(req.raw, reply.raw, req.body);
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
