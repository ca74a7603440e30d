import type { Engine, GuardedEngine, Identity, Invitations, UrlSigner } from '@pinpoint/engine';
import type { Config } from './config.js';

/** What every route plugin gets: nothing reads globals. Routes read data only through `guarded`. */
export interface RouteContext {
  engine: Engine;
  guarded: GuardedEngine;
  identity: Identity;
  /** Invitations into collections (checked by `guarded` inside). */
  invitations: Invitations;
  signer: UrlSigner;
  config: Config;
}
