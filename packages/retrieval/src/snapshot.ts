import type { LexicalStore } from './lexical-store.js';

const ARRAYS = ['lens', 'versions', 'documents', 'collections', 'pages'];

const maxDocOf = (store: LexicalStore) =>
  (store.db.prepare('SELECT max(doc) FROM lex_chunks').pluck().get() as number | null) ?? 0;

/**
 * The chunk table from the snapshot of the last clean close, if it is of the current generation and
 * chunk rows (a reopen then reads no chunk row); false when it must be read from the rows.
 */
export function restoreSnapshot(store: LexicalStore): boolean {
  const rows = new Map(store.db.prepare('SELECT name, data FROM lex_snapshot').raw().all() as [string, Uint8Array][]);
  const head = rows.get('head');
  if (!head) return false;
  const { generation, maxDoc } = JSON.parse(Buffer.from(head).toString()) as { generation: number; maxDoc: number };
  const json = rows.get('table');
  const arrays = ARRAYS.map((name) => rows.get(name));
  if (generation !== store.generation || maxDoc !== maxDocOf(store) || !json || arrays.some((a) => !a)) return false;
  store.chunks.restore(arrays as Uint8Array[], Buffer.from(json).toString());
  return true;
}

/** The chunk table's snapshot, written at a clean close after the tails are in segments. */
export function writeSnapshot(store: LexicalStore): void {
  const { arrays, json } = store.chunks.snapshot();
  const maxDoc = maxDocOf(store);
  const insert = store.db.prepare('INSERT INTO lex_snapshot (name, data) VALUES (?, ?)');
  store.db.transaction(() => {
    store.db.exec('DELETE FROM lex_snapshot');
    ARRAYS.forEach((name, i) => {
      insert.run(name, arrays[i]);
    });
    insert.run('table', Buffer.from(json));
    insert.run('head', Buffer.from(JSON.stringify({ generation: store.generation, maxDoc })));
  })();
}
