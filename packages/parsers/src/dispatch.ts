import type { Format } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import { csvParser } from './csv/index.js';
import { docxParser } from './docx/parse-docx.js';
import { htmlParser } from './html/parse-html.js';
import { imageParser } from './image/index.js';
import { jsonParser } from './json/index.js';
import { markdownParser } from './markdown/parse-markdown.js';
import { legacyDocParser, slidesParser } from './office/index.js';
import { pdfParser } from './pdf/parse-pdf.js';
import type { ParserEntry } from './registry.js';
import { spreadsheetParser } from './spreadsheet/index.js';
import { textParser } from './text/parse-text.js';

/** The dispatch table. Adding a format is one import and one line here. */
export const parserRegistry: Partial<Record<Format, ParserEntry>> = {
  csv: csvParser,
  doc: legacyDocParser,
  docx: docxParser,
  html: htmlParser,
  jpeg: imageParser,
  json: jsonParser,
  md: markdownParser,
  pdf: pdfParser,
  png: imageParser,
  ppt: slidesParser,
  pptx: slidesParser,
  txt: textParser,
  xls: spreadsheetParser,
  xlsx: spreadsheetParser,
};

export function parserFor(format: Format): ParserEntry {
  const entry = parserRegistry[format];
  if (!entry) throw createError('PP_UNSUPPORTED_FORMAT', `No parser is installed for .${format} files yet.`);
  return entry;
}

/** "name@version" of the parser a format uses, for the version's recipe. */
export function recipeParser(format: Format): string {
  const entry = parserFor(format);
  return `${entry.name}@${entry.version}`;
}
