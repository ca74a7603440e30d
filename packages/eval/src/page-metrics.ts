import type { GoldRef } from './relevance.js';

/**
 * Sets whose gold gives `page_index` (reports, long PDFs): is the right document first, and is the
 * evidence page among the first pages retrieved? Pages are ranked by the first chunk that reaches
 * them, so two chunks of one page count once.
 */
export interface PageMetrics {
  /** Share of answerable questions whose first retrieved chunk is from a gold file. */
  'doc@1': number;
  /** Share of answerable questions with a gold page among the first five distinct pages. */
  'page_hit@5': number;
  /** Mean reciprocal rank of the first gold page among the first ten distinct pages. */
  'page_mrr@10': number;
  /** Share of answerable questions answered (not refused). */
  answered: number;
}

export interface PageScored {
  answerable: boolean;
  refused: boolean;
  /** The whole retrieved list in rank order. */
  retrieved: { file: string; page_index?: number }[];
  gold: GoldRef[];
}

const round = (x: number): number => Math.round(x * 10000) / 10000;

/** The distinct (file, page) pairs of a ranked list, in the order they are first reached. */
export function rankedPages(retrieved: { file: string; page_index?: number }[]): { file: string; page_index?: number }[] {
  const seen = new Set<string>();
  const out: { file: string; page_index?: number }[] = [];
  for (const r of retrieved) {
    const key = `${r.file}\u0000${r.page_index ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r);
  }
  return out;
}

function goldPageRank(q: PageScored): number {
  const pages = rankedPages(q.retrieved).slice(0, 10);
  return pages.findIndex((p) => q.gold.some((g) => g.file === p.file && g.page_index === p.page_index));
}

/** Undefined when no answerable question's gold gives a page. */
export function computePageMetrics(questions: PageScored[]): PageMetrics | undefined {
  const paged = questions.filter((q) => q.answerable && q.gold.some((g) => g.page_index !== undefined));
  if (paged.length === 0) return undefined;
  const ranks = paged.map(goldPageRank);
  const firstIsGold = paged.filter((q) => q.retrieved[0] !== undefined && q.gold.some((g) => g.file === q.retrieved[0]?.file));
  return {
    'doc@1': round(firstIsGold.length / paged.length),
    'page_hit@5': round(ranks.filter((r) => r >= 0 && r < 5).length / paged.length),
    'page_mrr@10': round(ranks.reduce((s, r) => s + (r >= 0 ? 1 / (r + 1) : 0), 0) / paged.length),
    answered: round(paged.filter((q) => !q.refused).length / paged.length),
  };
}
