import type { ModelPorts } from '@pinpoint/compose';
import { openEmbeddedPorts } from '@pinpoint/compose';
import type { Engine, EngineConfig } from '@pinpoint/engine';
import { createEngine } from '@pinpoint/engine';

/** The same embedded composition as the server's (@pinpoint/compose), on a data folder the server may be running on too. */
export function openEmbeddedEngine(dataDir: string, config: EngineConfig, models: ModelPorts = {}): Engine {
  return createEngine(config, openEmbeddedPorts(dataDir, models, { pollMs: 50 }));
}
