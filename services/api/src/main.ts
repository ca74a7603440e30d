import { toPinpointError } from '@pinpoint/core';
import { gateMismatch } from '@pinpoint/engine';
import { openAccessStore } from './access.js';
import { buildApp } from './app.js';
import { createDistributedEngine } from './compose-distributed.js';
import { loadConfig } from './config.js';
import { createEmbeddedEngine, signingSecret } from './embedded.js';

/** The embedded composition root: one process with the API, the worker loop, SQLite and the data folder. */
async function main(): Promise<void> {
  const config = loadConfig();
  const engine =
    config.mode === 'distributed'
      ? await createDistributedEngine(config, (err) => process.stderr.write(`pinpoint: redis: ${err.message}\n`))
      : await createEmbeddedEngine(config);
  await engine.ensureCollection(config.defaultCollection);
  const access = await openAccessStore(config);
  const app = await buildApp(config, { engine, access, signingSecret: signingSecret(config) });
  const runner =
    config.worker.enabled && config.mode === 'embedded' ? engine.startWorker({ concurrency: config.worker.concurrency }) : null;
  let closing = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new requests, finishing running jobs');
    await app.close();
    await runner?.stop();
    await engine.close();
    await access.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  const mismatch = gateMismatch(config.engine.gate?.calibration, engine.ports);
  if (mismatch) app.log.warn(mismatch);
  await app.listen({ host: config.host, port: config.port });
  app.log.info(`Pinpoint is serving ${config.dataDir} at http://${config.host}:${config.port}`);
}

main().catch((err: unknown) => {
  const e = toPinpointError(err);
  process.stderr.write(`pinpoint: ${e.code}: ${e.message}\n`);
  process.exit(1);
});
