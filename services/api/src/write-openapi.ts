import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OPENAPI_PATH, renderOpenApi } from './openapi.js';

writeFileSync(OPENAPI_PATH, await renderOpenApi());
process.stdout.write(`wrote ${fileURLToPath(OPENAPI_PATH)}\n`);
