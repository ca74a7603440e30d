import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PageAnchor } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { conversionTimeoutMs, createLibreOfficeConverter } from './libreoffice.js';
import { parseLegacyDoc, parseSlides } from './parse-office.js';

const corpus = new URL('../../../../../shared/corpus/formats/', import.meta.url);
const read = (rel: string) => new Uint8Array(readFileSync(new URL(rel, corpus)));
const convert = createLibreOfficeConverter();

/** Text of one page of a PDF as poppler reads it, whitespace removed. */
function pdftotextPage(pdf: Uint8Array, page: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'pp-office-test-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    return execFileSync('pdftotext', ['-f', String(page), '-l', String(page), join(dir, 'in.pdf'), '-'])
      .toString()
      .replace(/\s+/g, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('office formats through LibreOffice', () => {
  it('turns each slide into a page of a derived PDF and anchors into it', async () => {
    const out = await parseSlides(read('pptx/r2r__pptx.pptx'), { fileName: 'deck.pptx', format: 'pptx', convert });
    const pdf = out.artifacts.find((a) => a.kind === 'pdf');
    expect(pdf?.mime).toBe('application/pdf');
    expect(out.sourceMap.pages).toHaveLength(2);
    expect(out.sourceMap.pages.every((p) => p.artifact === 'pdf')).toBe(true);
    for (const e of out.elements) {
      const a = e.anchor as PageAnchor;
      expect(a.artifact).toBe('pdf');
      expect(pdftotextPage(pdf?.bytes as Uint8Array, a.page_index + 1)).toContain(e.text.replace(/\s+/g, '').slice(0, 20));
      for (const b of a.boxes) expect(b[2]).toBeLessThanOrEqual(a.page_width + 1);
    }
    expect(out.elements[0]?.text).toBe('Sample PowerPoint File');
  });

  it('reads a legacy .doc through a LibreOffice .docx', async () => {
    const out = await parseLegacyDoc(read('doc/tika__testWORD6.doc'), { fileName: 'w6.doc', format: 'doc', convert });
    expect(out.elements[0]?.text).toBe('The quick brown fox jumps over the lazy dog');
    expect(out.elements[0]?.anchor.kind).toBe('record');
    expect(out.diagnostics[0]?.rule_id).toBe('office/converted');
  });

  it('fails a truncated .pptx as corrupt before converting it', async () => {
    const pptx = read('pptx/markitdown__test.pptx');
    await expect(parseSlides(pptx.subarray(0, 4000), { fileName: 'cut.pptx', format: 'pptx', convert })).rejects.toMatchObject({
      code: 'PP_PARSE_CORRUPT',
    });
  });

  it('reports a file LibreOffice cannot load as PP_CONVERSION_FAILED, and a missing soffice as PP_DEPENDENCY_MISSING', async () => {
    const garbage = new Uint8Array(4096);
    garbage.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    await expect(parseSlides(garbage, { fileName: 'bad.ppt', format: 'ppt', convert })).rejects.toMatchObject({
      code: 'PP_CONVERSION_FAILED',
    });
    const missing = createLibreOfficeConverter({ binary: 'soffice-not-installed' });
    await expect(missing.convert(read('ppt/unstructured__fake-power-point.ppt'), 'ppt', 'pdf')).rejects.toMatchObject({
      code: 'PP_DEPENDENCY_MISSING',
    });
    await expect(
      parseSlides(read('ppt/unstructured__fake-power-point.ppt'), { fileName: 'x.ppt', format: 'ppt' }),
    ).rejects.toMatchObject({
      code: 'PP_DEPENDENCY_MISSING',
    });
  });

  it('bounds a conversion by a base plus a share per MB of input, so a small file that hangs is stopped early', async () => {
    expect(conversionTimeoutMs(10 * 1024)).toBe(30_098);
    expect(conversionTimeoutMs(8 * 1024 * 1024)).toBe(110_000);
    expect(conversionTimeoutMs(2 * 1024 * 1024, { timeoutMs: 5_000, timeoutMsPerMb: 1_000 })).toBe(7_000);
    // the real LibreOffice under a limit far below its start-up time: stopped at the scaled limit
    const impatient = createLibreOfficeConverter({ timeoutMs: 300, timeoutMsPerMb: 0 });
    const started = performance.now();
    await expect(impatient.convert(read('ppt/unstructured__fake-power-point.ppt'), 'ppt', 'pdf')).rejects.toMatchObject({
      code: 'PP_PARSE_TIMEOUT',
    });
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
