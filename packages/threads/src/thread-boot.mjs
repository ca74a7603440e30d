import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

/**
 * A worker thread's first module: the TypeScript loader (a thread does not inherit the process's
 * `--import tsx`), then the thread's own module, named by `workerData.entry`.
 */
register();
await import(workerData.entry);
