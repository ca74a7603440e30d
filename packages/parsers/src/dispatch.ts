import type { Format } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type { ParseFn, ParserEntry } from './registry.js';

/**
 * A parser whose code loads on its first parse: a parser child (or the server) that only ever reads
 * PDFs never evaluates the spreadsheet, Word or Markdown libraries — 0.6 CPU s of every fresh child's
 * start-up when they all loaded at once.
 */
function lazy(name: string, version: string, load: () => Promise<ParseFn>): ParserEntry {
  let loaded: Promise<ParseFn> | undefined;
  return {
    name,
    version,
    parse: async (bytes, ctx, options) => {
      loaded ??= load();
      return (await loaded)(bytes, ctx, options);
    },
  };
}

const csv = lazy('csv', '2', async () => {
  const { parseCsv } = await import('./csv/parse-csv.js');
  return (bytes, ctx) => parseCsv(bytes, ctx);
});
/** Version 2: a table cell is named A1 on the table's grid ("C10", empty rows counted), not "R9C3". */
const docx = lazy('docx', '2', async () => (await import('./docx/parse-docx.js')).parseDocx);
/**
 * Version 2: elements carry raw maps, so a cited sentence's `raw` is its own span.
 * Version 3: a sortable table's hidden sort keys are left out of its cells.
 */
const html = lazy('html', '3', async () => (await import('./html/parse-html.js')).parseHtml);
const image = lazy('image-ocr', '1', async () => {
  const { parseImage } = await import('./image/parse-image.js');
  return (bytes, ctx, options) => parseImage(bytes, ctx, options.ocrLangs ? { ocrLangs: options.ocrLangs } : {});
});
/** Version 2: elements carry raw maps, so a cited sentence's `raw` is its own span. */
const json = lazy('json', '2', async () => {
  const { parseJson } = await import('./json/parse-json.js');
  return (bytes, ctx) => parseJson(bytes, ctx);
});
const markdown = lazy('markdown', '1', async () => (await import('./markdown/parse-markdown.js')).parseMarkdown);
const pdf = lazy('pdf', '3', async () => (await import('./pdf/parse-pdf.js')).parsePdf);
/**
 * Recipe names say the route: slides go through a LibreOffice PDF, .doc through a LibreOffice .docx.
 * Slides version 2: .pptx tables become table rows with cell boxes (slide XML), not PDF paragraphs.
 * Version 3: .ppt tables too (through a LibreOffice .pptx), and a second header row under group headings.
 * Doc version 2: its table cells are named as docx@2 names them.
 */
const slides = lazy('slides-libreoffice-pdf', '4', async () => (await import('./office/parse-office.js')).parseSlides);
const legacyDoc = lazy('doc-libreoffice-docx', '2', async () => {
  const { parseLegacyDoc } = await import('./office/parse-office.js');
  return (bytes, ctx) => parseLegacyDoc(bytes, ctx);
});
const spreadsheet = lazy('spreadsheet', '2', async () => {
  const { parseSpreadsheet } = await import('./spreadsheet/parse-spreadsheet.js');
  return (bytes, ctx) => parseSpreadsheet(bytes, ctx);
});
const tiff = lazy('tiff-ocr', '1', async () => {
  const { parseTiff } = await import('./tiff/parse-tiff.js');
  return (bytes, ctx, options) => parseTiff(bytes, ctx, options.ocrLangs ? { ocrLangs: options.ocrLangs } : {});
});
const text = lazy('text', '1', async () => (await import('./text/parse-text.js')).parseText);

/** The dispatch table. Adding a format is one lazy entry and one line here. */
const parserRegistry: Partial<Record<Format, ParserEntry>> = {
  csv,
  doc: legacyDoc,
  docx,
  html,
  jpeg: image,
  json,
  md: markdown,
  pdf,
  png: image,
  ppt: slides,
  pptx: slides,
  tiff,
  txt: text,
  xls: spreadsheet,
  xlsx: spreadsheet,
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
