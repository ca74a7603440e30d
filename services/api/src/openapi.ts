import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAccessStore } from './access.js';
import { buildApp } from './app.js';
import { configFor } from './config.js';
import { createEmbeddedEngine } from './embedded.js';

/** Where the committed OpenAPI document lives. */
export const OPENAPI_PATH = new URL('../../../docs/openapi.json', import.meta.url);

/** The OpenAPI document generated from the route schemas, as committed (2-space JSON, trailing newline). */
export async function renderOpenApi(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pp-openapi-'));
  const config = configFor(join(dir, 'data'), { PINPOINT_LOG_LEVEL: 'silent', PINPOINT_WEB_DIST: join(dir, 'none') });
  const engine = await createEmbeddedEngine(config);
  const access = await openAccessStore(config);
  try {
    const app = await buildApp(config, { engine, access, signingSecret: 'openapi-generation-only' });
    await app.ready();
    const doc = app.swagger();
    await app.close();
    return `${JSON.stringify(doc, null, 2)}\n`;
  } finally {
    await engine.close();
    await access.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
