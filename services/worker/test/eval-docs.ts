import { readdirSync } from 'node:fs';

const EVAL = new URL('../../../../shared/eval/', import.meta.url).pathname;

/** Files of the shared eval datasets (read in place), optionally only some extensions or datasets, round-robin across datasets. */
export function evalDocs(extensions?: string[], datasets?: string[]): string[] {
  const lists = readdirSync(EVAL, { withFileTypes: true })
    .filter((d) => d.isDirectory() && (!datasets || datasets.includes(d.name)))
    .map((d) =>
      readdirSync(`${EVAL}${d.name}/docs`)
        .filter((f) => !extensions || extensions.some((x) => f.endsWith(`.${x}`)))
        .sort()
        .map((f) => `${EVAL}${d.name}/docs/${f}`),
    );
  const out: string[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i += 1) {
    for (const l of lists) {
      const file = l[i];
      if (file) out.push(file);
    }
  }
  return out;
}
