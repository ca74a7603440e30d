import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createError } from '@pinpoint/core';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
let loaded: Promise<PdfJs> | undefined;

/** pdf.js's legacy (Node) build, loaded once. */
function pdfjs(): Promise<PdfJs> {
  loaded ??= import(pathToFileURL(path.join(pdfjsRoot, 'legacy/build/pdf.mjs')).href) as Promise<PdfJs>;
  return loaded;
}

function errorName(err: unknown): string {
  return err && typeof err === 'object' && 'name' in err && typeof err.name === 'string' ? err.name : '';
}

/** Opens a PDF from bytes, offline (CMaps and standard fonts from the package folder), never evaluating code. */
export async function openPdf(bytes: Uint8Array, fileName: string): Promise<PDFDocumentProxy> {
  const lib = await pdfjs();
  // pdf.js may transfer (detach) the buffer it is given: hand it a copy.
  const task = lib.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    cMapUrl: `${path.join(pdfjsRoot, 'cmaps')}/`,
    cMapPacked: true,
    standardFontDataUrl: `${path.join(pdfjsRoot, 'standard_fonts')}/`,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (err) {
    if (errorName(err) === 'PasswordException') {
      throw createError(
        'PP_PARSE_ENCRYPTED_PDF',
        `${fileName} is protected by a password; remove the protection (or print to a new PDF) and upload it again.`,
        err,
      );
    }
    throw createError('PP_PARSE_CORRUPT', `${fileName} is truncated or damaged; re-export or re-download the PDF.`, err);
  }
}
