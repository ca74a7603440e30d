import type { Engine, GuardedEngine, Identity } from '@pinpoint/engine';
import type { Config } from './config.js';
import type { UrlSigner } from './signing.js';

/** What every route plugin gets: nothing reads globals. Routes read data only through `guarded`. */
export interface RouteContext {
  engine: Engine;
  guarded: GuardedEngine;
  identity: Identity;
  signer: UrlSigner;
  config: Config;
}
