import type { Anchor } from './anchors.js';

/** What the source reader needs to open one citation highlighted. */
export interface CiteLink {
  versionId: string;
  chunkId?: string | undefined;
  elementId?: string | undefined;
  /** The citation's number in its answer. */
  n?: number | undefined;
  anchor?: Anchor | undefined;
  /** The question whose answer the citation belongs to ("back to the answer"). */
  question?: string | undefined;
  /** The answer span inside the cited text (a date, number, name or place), marked by the reader. */
  mark?: string | undefined;
  /** The question-history entry the answer was reopened from: "back to the answer" returns there. */
  historyId?: string | undefined;
}

/**
 * The web app's hash route of one citation, `#/cite?v=…&c=…&e=…&n=…&a=…&q=…&m=…&h=…`: the SPA's links and
 * the links handed out to agents are this one string, which the reader's route parser reads back.
 */
export function formatCiteHash(link: CiteLink): string {
  const p = new URLSearchParams({ v: link.versionId });
  if (link.chunkId) p.set('c', link.chunkId);
  if (link.elementId) p.set('e', link.elementId);
  if (link.n) p.set('n', String(link.n));
  if (link.anchor) p.set('a', JSON.stringify(link.anchor));
  if (link.question) p.set('q', link.question);
  if (link.mark) p.set('m', link.mark);
  if (link.historyId) p.set('h', link.historyId);
  return `#/cite?${p}`;
}
