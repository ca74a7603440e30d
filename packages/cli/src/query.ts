import type { Answer, Engine, SearchResponse } from '@pinpoint/engine';

async function collectionId(engine: Engine, name: string): Promise<string | undefined> {
  return (await engine.listCollections()).find((c) => c.name === name)?.collection_id;
}

export async function askQuestion(engine: Engine, question: string, collection: string): Promise<Answer> {
  const id = await collectionId(engine, collection);
  return engine.ask(question, id ? { collectionId: id } : {});
}

export async function searchQuery(engine: Engine, query: string, collection: string, k: number): Promise<SearchResponse> {
  const id = await collectionId(engine, collection);
  return engine.search(query, { k, ...(id ? { collectionId: id } : {}) });
}

function where(c: { file: string; page_index?: number | undefined; page_label?: string | undefined }): string {
  if (c.page_index === undefined) return c.file;
  return `${c.file} p.${c.page_label ?? c.page_index + 1}`;
}

export function humanAnswer(a: Answer, showSources: boolean): string {
  const out = [a.refused ? `(refused) ${a.answer}` : a.answer];
  for (const c of a.citations) {
    const span =
      c.anchor.kind === 'text'
        ? ` [${c.anchor.start}, ${c.anchor.end})`
        : c.anchor.kind === 'record'
          ? ` record ${c.anchor.record_id}`
          : '';
    out.push(`  [${c.n}] ${where(c)}${span} (${c.precision}) “${c.quote.slice(0, 120)}”`);
  }
  if (showSources) {
    out.push('', 'sources:');
    for (const r of a.retrieved)
      out.push(
        `  ${r.rank}. ${where(r)}  lexical ${r.scores.lexical?.toFixed(3) ?? '-'}  ${r.text.slice(0, 100).replace(/\s+/g, ' ')}`,
      );
  }
  out.push(
    '',
    `(${Object.entries(a.timings)
      .map(([k, v]) => `${k} ${v} ms`)
      .join(', ')})`,
  );
  return out.join('\n');
}

export function humanSearch(s: SearchResponse): string {
  return s.hits
    .map((r) => `${r.rank}. ${where(r)}  ${r.scores.lexical?.toFixed(3) ?? '-'}  ${r.text.slice(0, 120).replace(/\s+/g, ' ')}`)
    .join('\n');
}
