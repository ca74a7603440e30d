import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { openEmbeddedAccessStore } from '@pinpoint/compose';
import type { AccessStore, Principal } from '@pinpoint/core';
import { createError, LOCAL_PRINCIPAL } from '@pinpoint/core';
import type { Engine } from '@pinpoint/engine';
import { createGuardedEngine, createIdentity, signingSecretIn, UrlSigner } from '@pinpoint/engine';
import { createPinpointMcpServer } from '@pinpoint/mcp';
import type { CliConfig } from './config.js';

/** The user of PINPOINT_TOKEN; without one, the local user unless auth is on. */
async function stdioPrincipal(cfg: CliConfig, access: AccessStore): Promise<Principal> {
  const { token, required } = cfg.mcpAuth;
  if (!token) {
    if (required)
      throw createError(
        'PP_UNAUTHORIZED',
        'PINPOINT_AUTH is on: set PINPOINT_TOKEN to an API token (pinpoint tokens create EMAIL).',
      );
    return LOCAL_PRINCIPAL;
  }
  const principal = await createIdentity(access).authenticateToken(token);
  if (!principal) throw createError('PP_UNAUTHORIZED', 'PINPOINT_TOKEN is not a valid API token, or it was revoked.');
  return principal;
}

/**
 * `pinpoint mcp`: the MCP server over stdio, newline-delimited JSON-RPC on stdin/stdout (logs on
 * stderr only), on the data folder, with the permissions of PINPOINT_TOKEN's user. Resolves when
 * the client closes stdin or on SIGINT/SIGTERM.
 */
export async function serveMcpStdio(cfg: CliConfig, engine: Engine): Promise<void> {
  const access = openEmbeddedAccessStore(cfg.dataDir);
  try {
    const principal = await stdioPrincipal(cfg, access);
    const server = createPinpointMcpServer(
      {
        guarded: createGuardedEngine(engine, access),
        principal,
        publicUrl: cfg.publicUrl,
        signer: new UrlSigner(signingSecretIn(cfg.dataDir, cfg.signing.secret), cfg.signing.ttlSeconds),
      },
      { log: (message, err) => process.stderr.write(`pinpoint mcp: ${err.code}: ${message}\n`) },
    );
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
    });
    transport.onerror = (err) => process.stderr.write(`pinpoint mcp: ${err.message}\n`);
    const stop = (): void => void server.close();
    process.stdin.once('end', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await server.connect(transport);
    const who = principal.kind === 'user' ? principal.email : 'the local user';
    process.stderr.write(`pinpoint mcp: serving ${cfg.dataDir} over stdio as ${who}\n`);
    await closed;
  } finally {
    await access.close();
  }
}
