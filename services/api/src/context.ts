import type { Engine } from '@pinpoint/engine';
import type { Config } from './config.js';
import type { UrlSigner } from './signing.js';

/** What every route plugin gets: nothing reads globals. */
export interface RouteContext {
  engine: Engine;
  signer: UrlSigner;
  config: Config;
}
