/**
 * Reads until `ok` holds or `timeoutMs` passes, and returns the last value read: the test then
 * asserts on it, so a timeout fails with what was actually there.
 */
export async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}
