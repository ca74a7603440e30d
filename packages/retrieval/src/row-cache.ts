/** A segment's row of a term: its count, skip table and data (empty for a list in parts). */
export type Row = [number, Uint8Array, Uint8Array];

/**
 * The rows and parts read lately, least recently used first out, up to a number of bytes: a row
 * read from SQLite cost 18 µs at 200k chunks, and a third of a question's terms had come in a
 * question before (common words, particles, frequent bigrams). Segments never change and their
 * numbers are never reused, so an entry holds as long as its segment; a merged segment's entries
 * are never asked for again and leave as the cache turns over.
 */
export class RowCache {
  private readonly entries = new Map<string, Row | Uint8Array | null>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get<T extends Row | Uint8Array | null>(key: string, read: () => T): T {
    if (this.entries.has(key)) {
      const hit = this.entries.get(key) as T;
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = read();
    this.entries.set(key, value);
    this.bytes += sizeOf(value) + key.length * 2;
    for (const [old, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(old);
      this.bytes -= sizeOf(v) + old.length * 2;
    }
    return value;
  }
}

/** Bytes an entry holds, with a little for the entry itself. */
function sizeOf(v: Row | Uint8Array | null): number {
  if (v === null) return 16;
  if (v instanceof Uint8Array) return 64 + v.byteLength;
  return 96 + v[1].byteLength + v[2].byteLength;
}
