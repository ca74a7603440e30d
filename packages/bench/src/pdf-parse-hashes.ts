/**
 * The sha256 of every PDF's parse output (elements, source map, diagnostics: all a citation is built
 * from), or of its error code, one line a file. Run before and after a change to the PDF parser and
 * compare: a file whose line differs cites differently.
 *
 *   pnpm pdf-hashes --out before.tsv ../shared/corpus/formats/pdf ../shared/eval
 *   pnpm pdf-hashes --compare before.tsv after.tsv
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { detectFormat, parseDocument } from '@pinpoint/parsers';

/** Every .pdf below `dir`, sorted. */
function pdfsBelow(dir: string): string[] {
  if (statSync(dir).isFile()) return [dir];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.toLowerCase().endsWith('.pdf'))
    .map((f) => join(dir, f))
    .sort();
}

async function hashOf(file: string): Promise<string> {
  const bytes = new Uint8Array(readFileSync(file));
  const fileName = file.split('/').at(-1) as string;
  try {
    const out = await parseDocument(bytes, { fileName, format: detectFormat(fileName, bytes) });
    return createHash('sha256').update(JSON.stringify(out)).digest('hex');
  } catch (err) {
    return `error ${err && typeof err === 'object' && 'code' in err ? String(err.code) : String(err)}`;
  }
}

function readHashes(file: string): Map<string, string> {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  return new Map(lines.map((l) => l.split('\t') as [string, string]));
}

/** The files whose hash differs or that only one side has; exit code 1 when there are any. */
function compare(before: string, after: string): number {
  const [a, b] = [readHashes(before), readHashes(after)];
  const differ = [...new Set([...a.keys(), ...b.keys()])].filter((f) => a.get(f) !== b.get(f));
  for (const f of differ) console.log(`differs\t${f}\t${a.get(f) ?? '-'}\t${b.get(f) ?? '-'}`);
  console.log(`${differ.length} of ${a.size} files differ`);
  return differ.length === 0 ? 0 : 1;
}

const { values, positionals } = parseArgs({
  options: { out: { type: 'string' }, compare: { type: 'boolean', default: false } },
  allowPositionals: true,
});
if (values.compare) process.exitCode = compare(positionals[0] ?? '', positionals[1] ?? '');
else {
  const lines: string[] = [];
  for (const file of positionals.flatMap(pdfsBelow)) lines.push(`${file}\t${await hashOf(file)}`);
  if (values.out) writeFileSync(values.out, `${lines.join('\n')}\n`);
  else console.log(lines.join('\n'));
}
