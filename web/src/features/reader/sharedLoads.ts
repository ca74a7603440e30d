/** A value opened once per key while it has users, closed when the last user releases it and a linger passes. */
export interface Lease<T> {
  value: Promise<T>;
  /** The caller is done with the value; once no caller holds it, it is closed after `lingerMs`. */
  release(): void;
}

interface Entry<T> {
  value: Promise<T>;
  users: number;
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * Shares what is expensive to open (a parsed PDF) between the views that show it, and closes it
 * when none does: the linger keeps it across a quick back-and-forth between citations of one file.
 */
export function createSharedLoads<T>(
  open: (key: string) => Promise<T>,
  close: (value: T) => void,
  lingerMs: number,
): { acquire(key: string): Lease<T>; readonly size: number } {
  const entries = new Map<string, Entry<T>>();
  const drop = (key: string, entry: Entry<T>): void => {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    entry.value.then(close, () => {});
  };
  return {
    get size() {
      return entries.size;
    },
    acquire(key) {
      let entry = entries.get(key);
      if (!entry) {
        const created: Entry<T> = { value: open(key), users: 0, timer: null };
        // a failed open is forgotten at once, so the next view tries again
        created.value.catch(() => entries.get(key) === created && entries.delete(key));
        entries.set(key, created);
        entry = created;
      }
      const held = entry;
      held.users += 1;
      if (held.timer) clearTimeout(held.timer);
      held.timer = null;
      let released = false;
      return {
        value: held.value,
        release() {
          if (released) return;
          released = true;
          held.users -= 1;
          if (held.users > 0) return;
          held.timer = setTimeout(() => drop(key, held), lingerMs);
        },
      };
    },
  };
}
