import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseDocument, detectFormat } from '@pinpoint/parsers';
const n = Number(process.env.N ?? 0);
for (const path of process.argv.slice(2)) {
  const bytes = new Uint8Array(readFileSync(path));
  const format = detectFormat(basename(path), bytes);
  const out = await parseDocument(bytes, { fileName: basename(path), format });
  console.log('=====', basename(path), JSON.stringify(out.metadata));
  const first = out.elements.filter((e) => e.anchor.kind !== 'page' || (e.anchor as any).page_index < 1).slice(0, n);
  for (const e of first) console.log(e.type, JSON.stringify(e.text.slice(0, 160)));
}
