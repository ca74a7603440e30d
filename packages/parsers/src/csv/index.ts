import type { ParserEntry } from '../registry.js';
import { parseCsv } from './parse-csv.js';

export const csvParser: ParserEntry = { name: 'csv', version: '2', parse: (bytes, ctx) => parseCsv(bytes, ctx) };
