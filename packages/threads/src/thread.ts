import { parentPort, Worker, workerData } from 'node:worker_threads';
import { createError, type ErrorCode, isErrorCode, toPinpointError } from '@pinpoint/core/errors';

/**
 * A module run in a worker thread, called like an object: `startThread(entry, init)` on the caller's
 * side, `serveThread(setup)` in the thread's module. Calls are answered one at a time in the order
 * they were made, so a search made after an upsert sees it. A thread holds the process open only
 * while a call is pending.
 */

// biome-ignore lint/suspicious/noExplicitAny: a handler's payload type is its own; `never` would reject every call.
export type ThreadHandlers = Record<string, (payload: any) => unknown>;

const TRANSFER = Symbol('transfer');

interface Transferring<T> {
  [TRANSFER]: true;
  value: T;
  list: ArrayBuffer[];
}

/** A handler's result whose buffers move to the caller instead of being copied. */
export function transferring<T>(value: T, list: ArrayBuffer[]): Transferring<T> {
  return { [TRANSFER]: true, value, list };
}

type Unwrapped<R> = R extends Transferring<infer V> ? V : R;
type Payload<H extends ThreadHandlers, K extends keyof H> = Parameters<H[K]>[0];
type Result<H extends ThreadHandlers, K extends keyof H> = Unwrapped<Awaited<ReturnType<H[K]>>>;

export interface ThreadHandle<H extends ThreadHandlers> {
  call<K extends keyof H & string>(method: K, payload: Payload<H, K>, transfer?: ArrayBuffer[]): Promise<Result<H, K>>;
  /** Waits for the pending calls, then stops the thread. */
  close(): Promise<void>;
}

interface Request {
  id: number;
  method: string;
  payload: unknown;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; code: ErrorCode; message: string };

/** What a thread tells its caller between replies (the progress of long setup work, say). */
interface Notice {
  notice: unknown;
}

const bootUrl = new URL('./thread-boot.mjs', import.meta.url);

/**
 * A thread's young generation (its newly made objects), in MB. V8 otherwise sizes it from the
 * machine's memory, and on this 24 GB machine each thread kept 45–50 MB of heap resident to hold
 * 15–25 MB of live objects; the threads' work (term counting, pooling, graph inserts, merge batches)
 * makes short-lived objects, which a smaller young generation collects as cheaply. At 20,000 chunks
 * of the scale bench (hybrid: analysis, encoder and vector index threads) the process's peak RSS
 * fell from 862 to 816 MB.
 */
const YOUNG_GENERATION_MB = 16;

/**
 * `transfer`: buffers of `init` that move to the thread instead of being copied; `onNotice`: what the
 * thread's `notify` sends (see serveThread).
 */
export function startThread<H extends ThreadHandlers>(
  entry: URL,
  init: unknown,
  name: string,
  transfer: ArrayBuffer[] = [],
  onNotice?: (notice: unknown) => void,
): ThreadHandle<H> {
  const worker = new Worker(bootUrl, {
    workerData: { entry: entry.href, init },
    name,
    transferList: transfer,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  worker.unref();
  const pending = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let dead: Error | null = null;
  const settle = (id: number) => {
    const p = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return p;
  };
  const fail = (err: Error) => {
    dead ??= createError('PP_INTERNAL', `The ${name} thread stopped: ${err.message}`, err);
    for (const id of [...pending.keys()]) settle(id)?.reject(dead);
  };
  worker.on('message', (reply: Reply | Notice) => {
    if ('notice' in reply) {
      onNotice?.(reply.notice);
      return;
    }
    const p = settle(reply.id);
    if (reply.ok) p?.resolve(reply.value as never);
    else p?.reject(createError(reply.code, reply.message));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
  const calls = new Set<Promise<unknown>>();
  return {
    call(method, payload, transfer) {
      if (dead) return Promise.reject(dead);
      const id = nextId++;
      const done = new Promise<never>((resolve, reject) => {
        if (pending.size === 0) worker.ref();
        pending.set(id, { resolve, reject });
      });
      worker.postMessage({ id, method, payload } satisfies Request, transfer ?? []);
      const settled: Promise<unknown> = done.then(
        () => calls.delete(settled),
        () => calls.delete(settled),
      );
      calls.add(settled);
      return done;
    },
    async close() {
      while (calls.size > 0) await Promise.all([...calls]);
      dead ??= createError('PP_INTERNAL', `The ${name} thread is closed.`);
      await worker.terminate();
    },
  };
}

function errorReply(id: number, err: unknown): Reply {
  const e = toPinpointError(err);
  return { id, ok: false, code: isErrorCode(e.code) ? e.code : 'PP_INTERNAL', message: e.message };
}

/**
 * In the thread's module: builds the handlers from the caller's `init`, then answers calls in order.
 * `notify` sends the caller's `onNotice` a message at any time, setup included.
 */
export function serveThread<H extends ThreadHandlers>(
  setup: (init: never, notify: (notice: unknown) => void) => H | Promise<H>,
): void {
  const port = parentPort;
  if (!port) throw createError('PP_INTERNAL', 'serveThread runs only inside a worker thread.');
  const notify = (notice: unknown) => port.postMessage({ notice } satisfies Notice);
  const ready = Promise.resolve().then(() => setup((workerData as { init: never }).init, notify));
  let queue: Promise<unknown> = ready.catch(() => undefined);
  port.on('message', (req: Request) => {
    queue = queue.then(async () => {
      try {
        const handlers = await ready;
        const handler = handlers[req.method];
        if (!handler) throw createError('PP_INTERNAL', `No thread method "${req.method}".`);
        const out = await handler(req.payload);
        if (out && typeof out === 'object' && TRANSFER in out) {
          const t = out as Transferring<unknown>;
          port.postMessage({ id: req.id, ok: true, value: t.value } satisfies Reply, t.list);
        } else port.postMessage({ id: req.id, ok: true, value: out } satisfies Reply);
      } catch (err) {
        port.postMessage(errorReply(req.id, err));
      }
    });
  });
}

/**
 * A handle whose thread is started (by `start`) at its first call, not before: a thread only some
 * work needs costs nothing to whoever never asks for that work (its module load is a quarter of a
 * second of CPU under tsx). Closing one never started starts nothing.
 */
export function lazily<H extends ThreadHandlers>(start: () => ThreadHandle<H>): ThreadHandle<H> {
  let thread: ThreadHandle<H> | null = null;
  let closed = false;
  return {
    call(method, payload, transfer) {
      if (closed) return Promise.reject(createError('PP_INTERNAL', 'The thread is closed.'));
      thread ??= start();
      return thread.call(method, payload, transfer);
    },
    async close() {
      closed = true;
      await thread?.close();
    },
  };
}
