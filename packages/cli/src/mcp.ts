import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Engine } from '@pinpoint/engine';
import { signingSecretIn, UrlSigner } from '@pinpoint/engine';
import { createPinpointMcpServer } from '@pinpoint/mcp';
import type { CliConfig } from './config.js';

/**
 * `pinpoint mcp`: the MCP server over stdio, newline-delimited JSON-RPC on stdin/stdout (logs on
 * stderr only), on the data folder. Resolves when the client closes stdin or on SIGINT/SIGTERM.
 */
export async function serveMcpStdio(cfg: CliConfig, engine: Engine): Promise<void> {
  const signer = new UrlSigner(signingSecretIn(cfg.dataDir, cfg.signing.secret), cfg.signing.ttlSeconds);
  const server = createPinpointMcpServer(
    { engine, publicUrl: cfg.publicUrl, signDownload: (versionId) => signer.sign(versionId) },
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
  process.stderr.write(`pinpoint mcp: serving ${cfg.dataDir} over stdio\n`);
  await closed;
}
