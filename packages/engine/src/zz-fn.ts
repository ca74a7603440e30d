import { readdirSync } from 'node:fs';
import { identityFromFileName } from './identity-file-name.js';
import { nameKey } from './identity-names.js';
for (const d of process.argv.slice(2)) for (const f of readdirSync(d).slice(0, 70)) { const i = identityFromFileName(f); console.log(f, '→', JSON.stringify(i.names.map(n=>[n.value, nameKey(n.value)])), i.kind?.value, JSON.stringify(i.period)); }
