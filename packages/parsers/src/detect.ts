import type { Format } from '@pinpoint/core';
import { createError } from '@pinpoint/core';

const extensionFormats: Readonly<Record<string, Format>> = {
  pdf: 'pdf',
  docx: 'docx',
  doc: 'doc',
  pptx: 'pptx',
  ppt: 'ppt',
  xlsx: 'xlsx',
  xls: 'xls',
  csv: 'csv',
  txt: 'txt',
  md: 'md',
  markdown: 'md',
  json: 'json',
  html: 'html',
  htm: 'html',
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  tif: 'tiff',
  tiff: 'tiff',
};

const mimeFormats: Readonly<Record<string, Format>> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/html': 'html',
  'application/json': 'json',
  'text/csv': 'csv',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/tiff': 'tiff',
};

type Signature = 'pdf' | 'zip' | 'ole' | 'png' | 'jpeg' | 'tiff' | 'gif' | 'html' | 'text';

const zipFormats: ReadonlySet<Format> = new Set(['docx', 'xlsx', 'pptx']);
const oleFormats: ReadonlySet<Format> = new Set(['doc', 'xls', 'ppt']);
const textFormats: ReadonlySet<Format> = new Set(['txt', 'md', 'csv', 'json', 'html']);

/** The format an extension names ('markdown'→'md', 'htm'→'html', 'jpg'→'jpeg'), or undefined. */
export function formatFromExtension(fileName: string): Format | undefined {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0 || dot === fileName.length - 1) return undefined;
  return extensionFormats[fileName.slice(dot + 1).toLowerCase()];
}

function startsWith(bytes: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (bytes.byteLength < at + sig.length) return false;
  return sig.every((b, i) => bytes[at + i] === b);
}

function sniff(bytes: Uint8Array): Signature {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'gif';
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  // A PDF header may follow some junk bytes within the first 1024; text that mentions it after words stays text.
  const pdfAt = head.indexOf('%PDF-');
  if (pdfAt >= 0 && !/[A-Za-z]/.test(head.slice(0, pdfAt))) return 'pdf';
  if (/^\s*(<!doctype html|<html|<head|<body)/i.test(head.replace(/^\uFEFF|^\u00ef\u00bb\u00bf/, ''))) return 'html';
  return 'text';
}

const signatureNames: Readonly<Record<Signature, string>> = {
  pdf: 'a PDF',
  zip: 'a ZIP archive',
  ole: 'a legacy Office (OLE) file',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  tiff: 'a TIFF image',
  gif: 'a GIF image',
  html: 'an HTML page',
  text: 'plain text or unknown data',
};

function contentFits(format: Format, sig: Signature): boolean {
  if (format === 'pdf') return sig === 'pdf';
  // Encrypted OOXML files are OLE containers; their parsers report PP_PARSE_ENCRYPTED_OFFICE.
  if (zipFormats.has(format)) return sig === 'zip' || sig === 'ole';
  if (oleFormats.has(format)) return sig === 'ole' || sig === 'html' || sig === 'text' || (format === 'xls' && sig === 'zip');
  if (format === 'png') return sig === 'png';
  if (format === 'jpeg') return sig === 'jpeg';
  if (format === 'tiff') return sig === 'tiff';
  if (textFormats.has(format)) return sig === 'text' || sig === 'html';
  return false;
}

/**
 * The format of an upload: by extension (or the declared MIME type when there is no extension),
 * confirmed by the content's signature. Throws PP_EMPTY_FILE, PP_UNSUPPORTED_FORMAT or PP_FORMAT_MISMATCH.
 */
export function detectFormat(fileName: string, bytes: Uint8Array, declaredMime?: string): Format {
  if (bytes.byteLength === 0) throw createError('PP_EMPTY_FILE', `${fileName} is empty (0 bytes); upload the file again.`);
  const hasExtension = /\.[^./\\]+$/.test(fileName);
  const mime = declaredMime?.split(';')[0]?.trim().toLowerCase();
  const format = formatFromExtension(fileName) ?? (!hasExtension && mime ? mimeFormats[mime] : undefined);
  if (!format) {
    const ext = hasExtension ? fileName.slice(fileName.lastIndexOf('.')) : '(none)';
    throw createError(
      'PP_UNSUPPORTED_FORMAT',
      `${fileName}: extension ${ext} is not supported; upload pdf, docx, doc, pptx, ppt, xlsx, xls, csv, txt, md, json, html, png, jpg or tif.`,
    );
  }
  const sig = sniff(bytes);
  if (!contentFits(format, sig)) {
    throw createError(
      'PP_FORMAT_MISMATCH',
      `${fileName} has the .${format} extension but its content is ${signatureNames[sig]}; rename it with the right extension or re-export it.`,
    );
  }
  return format;
}
