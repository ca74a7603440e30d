import type { ParserEntry } from '../registry.js';
import { parseJson } from './parse-json.js';

export const jsonParser: ParserEntry = { name: 'json', version: '1', parse: (bytes, ctx) => parseJson(bytes, ctx) };
