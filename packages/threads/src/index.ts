export type { ThreadHandle, ThreadHandlers } from './thread.js';
export { serveThread, startThread, transferring } from './thread.js';
