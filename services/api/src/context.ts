import type { Engine, UrlSigner } from '@pinpoint/engine';
import type { Config } from './config.js';

/** What every route plugin gets: nothing reads globals. */
export interface RouteContext {
  engine: Engine;
  signer: UrlSigner;
  config: Config;
}
