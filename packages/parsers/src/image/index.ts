import type { ParserEntry } from '../registry.js';
import { parseImage } from './parse-image.js';

export const imageParser: ParserEntry = {
  name: 'image-ocr',
  version: '1',
  parse: (bytes, ctx, options) => parseImage(bytes, ctx, options.ocrLangs ? { ocrLangs: options.ocrLangs } : {}),
};
