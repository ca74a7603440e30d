export { publicLink, publicUrlEnvShape, publicUrlOf } from './public-url.js';
export type { McpServerOptions } from './server.js';
export { createPinpointMcpServer, ERROR_META_KEY, MCP_SERVER_NAME } from './server.js';
export type { McpToolContext } from './tools.js';
