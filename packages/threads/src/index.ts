export type { ThreadHandle, ThreadHandlers } from './thread.js';
export { lazily, serveThread, startThread, transferring } from './thread.js';
