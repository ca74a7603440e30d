import type { Collection, Job, PinDocument, Version } from '@pinpoint/core';
import type { Engine } from '@pinpoint/engine';

export interface Status {
  collections: Collection[];
  documents: PinDocument[];
  versions: Version[];
  jobs: Job[];
}

export async function readStatus(engine: Engine): Promise<Status> {
  const [collections, summaries, jobs] = await Promise.all([
    engine.listCollections(),
    engine.listDocuments(),
    engine.jobs.list(),
  ]);
  return { collections, documents: summaries.map((s) => s.document), versions: summaries.flatMap((s) => s.versions), jobs };
}

export function humanStatus(s: Status): string {
  const count = (states: string[]) => {
    const by = new Map<string, number>();
    for (const st of states) by.set(st, (by.get(st) ?? 0) + 1);
    return [...by].map(([k, v]) => `${v} ${k}`).join(', ') || 'none';
  };
  const lines = [
    `${s.collections.length} collections, ${s.documents.length} documents`,
    `versions: ${count(s.versions.map((v) => v.state))}`,
    `jobs: ${count(s.jobs.map((j) => j.state))}`,
  ];
  for (const v of s.versions.filter((x) => x.state === 'failed'))
    lines.push(`  ✗ ${v.original_name} v${v.number}: ${v.error_code} ${v.error_message ?? ''}`);
  return lines.join('\n');
}
