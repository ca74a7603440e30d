import type { ParserEntry } from '../registry.js';
import { parseCsv } from './parse-csv.js';

export const csvParser: ParserEntry = { name: 'csv', version: '1', parse: (bytes, ctx) => parseCsv(bytes, ctx) };
