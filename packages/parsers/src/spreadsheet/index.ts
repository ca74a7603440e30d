import type { ParserEntry } from '../registry.js';
import { parseSpreadsheet } from './parse-spreadsheet.js';

export const spreadsheetParser: ParserEntry = {
  name: 'spreadsheet',
  version: '2',
  parse: (bytes, ctx) => parseSpreadsheet(bytes, ctx),
};
