import type { ParserEntry } from '../registry.js';
import { parseLegacyDoc, parseSlides } from './parse-office.js';

/** Recipe names say the route: slides go through a LibreOffice PDF, .doc through a LibreOffice .docx. */
export const slidesParser: ParserEntry = { name: 'slides-libreoffice-pdf', version: '2', parse: parseSlides };
export const legacyDocParser: ParserEntry = {
  name: 'doc-libreoffice-docx',
  version: '1',
  parse: (bytes, ctx) => parseLegacyDoc(bytes, ctx),
};
