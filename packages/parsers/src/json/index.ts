import type { ParserEntry } from '../registry.js';
import { parseJson } from './parse-json.js';

/** Version 2: elements carry raw maps, so a cited sentence's `raw` is its own span. */
export const jsonParser: ParserEntry = { name: 'json', version: '2', parse: (bytes, ctx) => parseJson(bytes, ctx) };
