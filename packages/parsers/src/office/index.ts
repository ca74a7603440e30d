import type { ParserEntry } from '../registry.js';
import { parseLegacyDoc, parseSlides } from './parse-office.js';

/** Recipe names say the route: slides go through a LibreOffice PDF, .doc through a LibreOffice .docx. */
/**
 * Version 2: .pptx tables become table rows with cell boxes (slide XML), not PDF paragraphs.
 * Version 3: .ppt tables too (through a LibreOffice .pptx), and a second header row under group headings.
 */
export const slidesParser: ParserEntry = { name: 'slides-libreoffice-pdf', version: '3', parse: parseSlides };
export const legacyDocParser: ParserEntry = {
  name: 'doc-libreoffice-docx',
  version: '1',
  parse: (bytes, ctx) => parseLegacyDoc(bytes, ctx),
};
