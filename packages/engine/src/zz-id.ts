import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseDocument, detectFormat } from '@pinpoint/parsers';
import { readDocumentIdentity } from './document-identity.js';
for (const path of process.argv.slice(2)) {
  const bytes = new Uint8Array(readFileSync(path));
  const format = detectFormat(basename(path), bytes);
  const out = await parseDocument(bytes, { fileName: basename(path), format });
  const id = readDocumentIdentity({ fileName: basename(path), elements: out.elements, title: out.metadata?.title });
  console.log(basename(path), '|', id.names.map((n) => `${n.value} (${n.source})`).join('; '), '|', id.kind?.value, id.kind?.source, '|', JSON.stringify(id.period));
}
