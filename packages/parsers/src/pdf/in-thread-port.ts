type Listener = (event: { data: unknown }) => void;

/** How deep a message's arrays and plain objects are copied: message → chunk → its fnArray, argsArray or items. */
const COPY_DEPTH = 3;

/**
 * The arrays and plain objects of a message down to `depth`, copied; typed arrays, class instances
 * and anything deeper are shared. pdf.js empties an operator list's fnArray/argsArray (and replaces a
 * text chunk's items) right after sending them, and changes nothing they held once sent.
 */
function copyTop(value: unknown, depth: number): unknown {
  if (depth === 0 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => copyTop(v, depth - 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
  for (const [k, v] of Object.entries(value)) out[k] = copyTop(v, depth - 1);
  return out;
}

/**
 * The port between pdf.js's API and its worker when both run in this thread. pdf.js's own (its
 * LoopbackPort) passes every message through structuredClone, as if it crossed to another thread: for
 * an operator list that is every glyph object of every text operator, serialised and rebuilt, and
 * then collected (a third of what reading a page's drawn lines cost). This one hands messages over by
 * reference, copying only the containers pdf.js reuses, and delivers them in the same order, later
 * (in a microtask), as LoopbackPort does.
 */
export class InThreadPort {
  readonly #listeners = new Map<Listener, (() => void) | undefined>();

  postMessage(message: unknown): void {
    const event = { data: copyTop(message, COPY_DEPTH) };
    void Promise.resolve().then(() => {
      for (const listener of [...this.#listeners.keys()]) listener.call(this, event);
    });
  }

  addEventListener(_type: 'message', listener: Listener, options?: { signal?: AbortSignal }): void {
    const signal = options?.signal;
    if (signal?.aborted) return;
    let detach: (() => void) | undefined;
    if (signal) {
      const onAbort = (): void => this.removeEventListener('message', listener);
      signal.addEventListener('abort', onAbort);
      detach = () => signal.removeEventListener('abort', onAbort);
    }
    this.#listeners.set(listener, detach);
  }

  removeEventListener(_type: 'message', listener: Listener): void {
    this.#listeners.get(listener)?.();
    this.#listeners.delete(listener);
  }

  terminate(): void {
    for (const detach of this.#listeners.values()) detach?.();
    this.#listeners.clear();
  }
}
