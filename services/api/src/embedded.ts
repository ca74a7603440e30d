import { createModelPorts, openEmbeddedPorts } from '@pinpoint/compose';
import type { Engine } from '@pinpoint/engine';
import { createEngine, signingSecretIn } from '@pinpoint/engine';
import type { Config } from './config.js';

/** The embedded engine: the data folder's adapters (@pinpoint/compose) with the configured models and retries. */
export async function createEmbeddedEngine(config: Config): Promise<Engine> {
  const models = await createModelPorts(config.models, config.dataDir);
  const queue = { maxAttempts: config.worker.maxAttempts, backoffMs: config.worker.backoffMs };
  return createEngine(config.engine, openEmbeddedPorts(config.dataDir, models, queue));
}

/** The signing secret: configured, or generated once and kept in the data folder so URLs survive restarts. */
export function signingSecret(config: Config): string {
  return signingSecretIn(config.dataDir, config.signing.secret);
}
