import { describe, expect, it } from 'vitest';
import { readShared } from '../test/test-support.js';
import { detectFormat, formatFromExtension } from './detect.js';

const text = (s: string) => new TextEncoder().encode(s);

describe('detectFormat', () => {
  it('maps extensions, aliases included', () => {
    expect(['a.markdown', 'a.MD', 'b.htm', 'c.JPG', 'd.jpeg', 'e.xlsx', 'f.txt'].map(formatFromExtension)).toEqual([
      'md',
      'md',
      'html',
      'jpeg',
      'jpeg',
      'xlsx',
      'txt',
    ]);
    expect(formatFromExtension('archive.tar.gz')).toBeUndefined();
  });

  it('accepts real files of every extension in the corpus', () => {
    const samples: Array<[string, string]> = [
      ['corpus/formats/pdf/pdfjs__tracemonkey.pdf', 'pdf'],
      ['corpus/formats/docx/docling__word_tables.docx', 'docx'],
      ['corpus/formats/doc/tika__testWORD6.doc', 'doc'],
      ['corpus/formats/xls/markitdown__test.xls', 'xls'],
      ['corpus/formats/html/kotaemon__dummy.html', 'html'],
      ['corpus/formats/htm/unstructured__fake-html-pre.htm', 'html'],
      ['corpus/formats/txt/unstructured__fake-text-utf-16.txt', 'txt'],
      ['corpus/formats/markdown/kreuzberg__tables.markdown', 'md'],
    ];
    for (const [path, format] of samples) expect(detectFormat(path.split('/').at(-1) as string, readShared(path))).toBe(format);
  });

  it('PP_EMPTY_FILE for zero bytes', () => {
    expect(() => detectFormat('empty.pdf', new Uint8Array())).toThrow(expect.objectContaining({ code: 'PP_EMPTY_FILE' }));
    expect(() => detectFormat('empty.txt', readShared('corpus/formats/txt/unstructured__empty.txt'))).toThrow(
      expect.objectContaining({ code: 'PP_EMPTY_FILE' }),
    );
  });

  it('PP_UNSUPPORTED_FORMAT for unknown extensions', () => {
    expect(() => detectFormat('tool.exe', text('MZ'))).toThrow(expect.objectContaining({ code: 'PP_UNSUPPORTED_FORMAT' }));
    expect(() => detectFormat('README', text('hello'))).toThrow(expect.objectContaining({ code: 'PP_UNSUPPORTED_FORMAT' }));
    expect(detectFormat('README', text('hello'), 'text/plain; charset=utf-8')).toBe('txt');
  });

  it('PP_FORMAT_MISMATCH when the content contradicts the extension', () => {
    const html = readShared('corpus/formats/html/kotaemon__dummy.html');
    expect(() => detectFormat('report.pdf', html)).toThrow(
      expect.objectContaining({ code: 'PP_FORMAT_MISMATCH', message: expect.stringMatching(/HTML/) }),
    );
    expect(() => detectFormat('letter.docx', text('plain words, not a zip'))).toThrow(
      expect.objectContaining({ code: 'PP_FORMAT_MISMATCH' }),
    );
    expect(() => detectFormat('photo.png', readShared('corpus/formats/pdf/pdfjs__tracemonkey.pdf'))).toThrow(
      expect.objectContaining({ code: 'PP_FORMAT_MISMATCH' }),
    );
    expect(() => detectFormat('notes.txt', readShared('corpus/formats/pdf/pdfjs__tracemonkey.pdf'))).toThrow(
      expect.objectContaining({ code: 'PP_FORMAT_MISMATCH' }),
    );
  });

  it('text that mentions a PDF header stays text', () => {
    expect(detectFormat('notes.md', text('# Notes\n\nA file starts with %PDF-1.7 when it is a PDF.'))).toBe('md');
  });
});
