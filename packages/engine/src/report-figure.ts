import { financeGroupNames } from '@pinpoint/analysis';
import type { ReportFigureAnswer, TableSource } from '@pinpoint/answering';
import { itemCell, labelMayName, planReportFigure, readReportFigure, reportItems } from '@pinpoint/answering';
import type { SearchFilter } from '@pinpoint/core';
import { searchLexical } from '@pinpoint/retrieval';
import type { EnginePorts } from './config.js';
import { rowHitsOf } from './row-hits.js';
import type { RowHit } from './table-answer.js';
import { tableSources } from './table-answer.js';

/** The least share of a row's label a line item's name is to be read as the row's (report-answer.ts reads the rows of tables found). */
const MIN_LABEL_SHARE = 0.3;

/** Hits searched per line item, and tables read of them. */
const ITEM_HITS = 40;
const ITEM_TABLES = 8;

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/u;

/** A line item's names in the question's script: Latin names for a Latin question, CJK names for a Japanese or Chinese one. */
function namesFor(item: string, question: string): string[] {
  const cjk = CJK.test(question);
  const names = financeGroupNames(item).filter((n) => CJK.test(n) === cjk);
  return names.length > 0 ? names : financeGroupNames(item);
}

/** Tables once each (a table is known by its version and first row), in order. */
function unique(tables: TableSource[]): TableSource[] {
  const seen = new Set<string>();
  return tables.filter((t) => {
    const key = `${t.versionId}:${t.elements[0]?.element_id ?? ''}`;
    return !seen.has(key) && seen.add(key);
  });
}

/** The ranked row hits of one search, with their chunks and files. */
async function rowHits(ports: EnginePorts, query: string, filter: SearchFilter): Promise<RowHit[]> {
  const { hits } = await searchLexical(ports.lexical, query, { k: ITEM_HITS, filter });
  return rowHitsOf(ports.metadata, hits);
}

/**
 * A figure asked of the reports a question is scoped to (a line item or a measure of the lexicon,
 * for the years it names): each line item is searched on its own within the scope, its row read
 * from the tables found, and the figure computed with every operand cited. Undefined when the
 * question asks no such figure.
 */
export async function askReportFigure(
  ports: EnginePorts,
  question: string,
  filter: SearchFilter,
): Promise<ReportFigureAnswer | undefined> {
  const plan = planReportFigure(question);
  if (!plan) return undefined;
  const sources = new Map<string, TableSource[]>();
  const needed = reportItems(plan);
  for (const item of new Set(needed.map((i) => i.item))) {
    // each name searched on its own, the question's own name first, until a table's row it labels
    // holds the year: a query of all of them ranks the rows that repeat their common words
    // ("property, plant and equipment") first
    const year = needed.find((n) => n.item === item)?.year as number;
    // the statements found for the items before it hold most of a measure's line items: one read from its
    // own statement there is not searched for again
    const pool = unique([...sources.values()].flat());
    if (pool.length > 0 && itemCell(item, year, pool, question)?.home) {
      sources.set(item, []);
      continue;
    }
    const names = namesFor(item, question).sort((a, b) => Number(b === plan.name) - Number(a === plan.name));
    let found: TableSource[] = [];
    for (const name of names) {
      // only the tables of rows the name may label are read (a hit's row says its label first)
      const hits = (await rowHits(ports, name, filter)).filter((h) =>
        labelMayName(h.chunk.text.split(' | ')[0] ?? '', name, MIN_LABEL_SHARE),
      );
      const tables = await tableSources(ports.metadata, hits, ITEM_TABLES);
      found = [...found, ...tables];
      if (itemCell(item, year, tables, question)) break;
    }
    sources.set(item, found);
  }
  // a measure's line items stand in the same few statements: each item is read from every table found
  // for any of them (the statement its own search ranked below a note's table is found by another's)
  const all = [...sources.values()].flat();
  const pooled = new Map([...sources.keys()].map((item) => [item, unique([...(sources.get(item) ?? []), ...all])]));
  const read = readReportFigure(plan, pooled, question);
  // a line item not found in a table may still be stated in the report's prose: the passage reader looks
  return read.refused && !plan.computed ? undefined : read;
}
