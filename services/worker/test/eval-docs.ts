import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const EVAL = new URL('../../../../shared/eval/', import.meta.url).pathname;

/**
 * Files of the shared eval datasets (read in place), optionally only some extensions or datasets,
 * round-robin across datasets; a file whose bytes another set already holds (squad-offtopic-dev
 * shares squad2-dev's documents) is listed once, so each one uploaded makes its own version.
 */
export function evalDocs(extensions?: string[], datasets?: string[]): string[] {
  const lists = readdirSync(EVAL, { withFileTypes: true })
    // a set of page scans (ocr-dev) keeps its images in files/, not docs/: it is no question set
    .filter((d) => d.isDirectory() && (!datasets || datasets.includes(d.name)) && existsSync(`${EVAL}${d.name}/docs`))
    .map((d) =>
      readdirSync(`${EVAL}${d.name}/docs`)
        .filter((f) => !extensions || extensions.some((x) => f.endsWith(`.${x}`)))
        .sort()
        .map((f) => `${EVAL}${d.name}/docs/${f}`),
    );
  const out: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; lists.some((l) => i < l.length); i += 1) {
    for (const l of lists) {
      const file = l[i];
      if (!file) continue;
      const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
      if (!seen.has(sha)) out.push(file);
      seen.add(sha);
    }
  }
  return out;
}
