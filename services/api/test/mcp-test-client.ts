import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** For the MCP tests: the SDK's own client on a running API, and the jsquad evaluation files. */
const shared = new URL('../../../../shared/', import.meta.url);

export const evalDoc = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`eval/jsquad-dev/docs/${name}`, shared)));

export const evalQuestion = (id: string): string => {
  const lines = readFileSync(new URL('eval/jsquad-dev/questions.jsonl', shared), 'utf8').split('\n').filter(Boolean);
  const q = lines.map((l) => JSON.parse(l) as { id: string; question: string }).find((x) => x.id === id);
  if (!q) throw new Error(`question ${id} missing`);
  return q.question;
};

export const resultText = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

export interface McpTestClient {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

/** The SDK client over Streamable HTTP at `${base}/mcp`, with extra request headers (a bearer token). */
export async function connectMcp(base: string, headers: Record<string, string> = {}): Promise<McpTestClient> {
  const client = new Client({ name: 'pinpoint-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base), { requestInit: { headers } }));
  return {
    client,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
  };
}
