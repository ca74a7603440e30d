import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CallToolRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { PinpointError } from '@pinpoint/core';
import { createError, toPinpointError } from '@pinpoint/core';
import type { z } from 'zod';
import type { McpToolContext, ToolDefinition } from './tools.js';
import { pinpointTools } from './tools.js';

export const MCP_SERVER_NAME = 'pinpoint';
const VERSION = '0.1.0';

const INSTRUCTIONS =
  'Pinpoint answers questions about the caller\u2019s documents with citations that open at the exact place. ' +
  'Use ask for answers (it refuses when the documents do not answer: say so, do not guess), search for passages, ' +
  'and open_citation to give a person a link to a cited place.';

/** Where a failed call's stable code travels in a tool result, beside the readable text. */
export const ERROR_META_KEY = 'pinpoint/error';

export interface McpServerOptions {
  /** Unexpected failures (PP_INTERNAL and other 5xx) are logged here; the caller gets only the code. */
  log?: (message: string, err: PinpointError) => void;
}

function validationMessage(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

/** A failed call as an MCP tool error: `CODE: message` as text and `{ code, message }` in `_meta`. */
function toolError(err: unknown, options: McpServerOptions): CallToolResult {
  const e = toPinpointError(err);
  const internal = e.status >= 500;
  if (internal) options.log?.(e.message, e);
  const message = internal ? 'Pinpoint could not complete the call; the server log has the details.' : e.message;
  return {
    isError: true,
    content: [{ type: 'text', text: `${e.code}: ${message}` }],
    _meta: { [ERROR_META_KEY]: { code: e.code, message } },
  };
}

async function callTool(tool: ToolDefinition, args: unknown, options: McpServerOptions): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    return toolError(
      createError('PP_VALIDATION', `Invalid arguments for ${tool.name}: ${validationMessage(parsed.error)}`),
      options,
    );
  }
  try {
    const { data, text } = await tool.run(parsed.data);
    return { content: [{ type: 'text', text }], structuredContent: data as Record<string, unknown> };
  } catch (err) {
    return toolError(err, options);
  }
}

/**
 * An MCP server whose tools act for one caller (one stdio process, or one HTTP request). Tools are
 * registered with the SDK (listing, schemas); calls are dispatched here so that invalid arguments
 * and every failure come back as tool errors carrying their PP_… code, and the server keeps running.
 */
export function createPinpointMcpServer(ctx: McpToolContext, options: McpServerOptions = {}): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version: VERSION }, { instructions: INSTRUCTIONS });
  const tools = new Map<string, ToolDefinition>();
  for (const tool of pinpointTools(ctx)) {
    tools.set(tool.name, tool);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      (args: unknown) => callTool(tool, args, options),
    );
  }
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.get(request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `PP_NOT_FOUND: there is no tool ${request.params.name}.`, {
        code: 'PP_NOT_FOUND',
      });
    }
    return callTool(tool, request.params.arguments, options);
  });
  return server;
}
