import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Element, ParseOutput } from '@pinpoint/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectPageInvariants, parseShared, readShared, sharedDir, sharedFiles } from '../../test/test-support.js';
import { parseDocument } from '../parse.js';

// taken before any test loads pdf.js (it loads with the first PDF parsed)
const ownPush = Array.prototype.push;
const { parse: ownParse, stringify: ownStringify } = JSON;

const scans =
  /ocr_test|rotation_mismatch|image_only|non_searchable|scan\.pdf|labelled_pages|testOCR|loremipsum-flat|password|DA-619p/;
const corpus = sharedFiles('corpus/formats/pdf', ['pdf']).filter((f) => !scans.test(f));
const evalPdfs = ['squad2-dev', 'jsquad-dev', 'drcd-dev'].flatMap((set) => sharedFiles(`eval/${set}/docs`, ['pdf']).slice(0, 2));

const cache = new Map<string, Promise<ParseOutput>>();
const parsed = (file: string): Promise<ParseOutput> => {
  let out = cache.get(file);
  if (!out) {
    out = parseShared(file).then((r) => r.out);
    cache.set(file, out);
  }
  return out;
};

describe('parsePdf on the corpus text PDFs and eval PDFs', () => {
  it.each([...corpus, ...evalPdfs])('%s: boxes inside pages, spans inside text', async (file) => {
    const out = await parsed(file);
    expect(out.elements.length).toBeGreaterThan(0);
    expectPageInvariants(out);
  });
});

interface PopplerWord {
  text: string;
  box: [number, number, number, number];
}

function popplerWords(file: string, page: number): PopplerWord[] {
  const path = fileURLToPath(new URL(file, sharedDir));
  const xml = execFileSync('pdftotext', ['-bbox', '-f', String(page + 1), '-l', String(page + 1), path, '-'], {
    encoding: 'utf8',
  });
  return [...xml.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    text: (m[5] as string).replace(/&amp;/g, '&'),
    box: [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])],
  }));
}

const hasPoppler = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** The word's centre lies in a span box of an element on that page whose text contains the word. */
function located(elements: Element[], page: number, word: PopplerWord): boolean {
  const cx = (word.box[0] + word.box[2]) / 2;
  const cy = (word.box[1] + word.box[3]) / 2;
  return elements.some(
    (e) =>
      e.anchor.kind === 'page' &&
      e.anchor.page_index === page &&
      e.text.includes(word.text) &&
      (e.spans ?? []).some((s) => s.box[0] - 2 <= cx && cx <= s.box[2] + 2 && s.box[1] - 2 <= cy && cy <= s.box[3] + 2),
  );
}

describe.runIf(hasPoppler)('boxes agree with pdftotext -bbox', () => {
  it.each([
    ['corpus/formats/pdf/pdfjs__tracemonkey.pdf', 0],
    ['corpus/formats/pdf/pdfjs__tracemonkey.pdf', 5],
    ['corpus/formats/pdf/unstructured__multi-column-2p.pdf', 0],
    ['eval/squad2-dev/docs/001_Computational_complexity_theory.pdf', 2],
  ] as const)('%s page %i', async (file, page) => {
    const out = await parsed(file);
    const words = popplerWords(file, page).filter((w, i) => i % 5 === 0 && /^[A-Za-z]{4,}$/.test(w.text));
    expect(words.length).toBeGreaterThan(10);
    const misses = words.filter((w) => !located(out.elements, page, w));
    expect(misses.length / words.length, JSON.stringify(misses.slice(0, 5))).toBeLessThan(0.05);
  });
});

describe.runIf(hasPoppler)('a sentence that starts inside a line', () => {
  it.each([
    ['eval/squad2-dev/docs/006_Packet_switching.pdf', 0],
    ['eval/squad2-dev/docs/001_Computational_complexity_theory.pdf', 2],
  ] as const)('%s page %i: its box starts at its first word', async (file, page) => {
    const out = await parsed(file);
    const words = popplerWords(file, page);
    const offsets: number[] = [];
    for (const e of out.elements) {
      if (e.anchor.kind !== 'page' || e.anchor.page_index !== page) continue;
      for (const s of e.spans ?? []) {
        // spans of one line share its top: a sentence that starts after another on the same line
        const prev = (e.spans ?? []).find((o) => o.end <= s.start && s.start - o.end <= 1 && Math.abs(o.box[1] - s.box[1]) < 1);
        const first = Array.from(e.text).slice(s.start, s.end).join('').trim().split(/\s+/)[0];
        if (!prev || !first) continue;
        const cy = (s.box[1] + s.box[3]) / 2;
        const same = words.filter((w) => w.text === first && w.box[1] <= cy && cy <= w.box[3]);
        const near = Math.min(...same.map((w) => Math.abs(w.box[0] - s.box[0])));
        if (Number.isFinite(near)) offsets.push(near);
      }
    }
    expect(offsets.length).toBeGreaterThan(3);
    // within about a letter of the printed word for nine in ten sentences (an even 0.55 em a letter: 7–11 pt)
    offsets.sort((a, b) => a - b);
    expect(offsets[Math.floor(offsets.length * 0.9) - 1], JSON.stringify(offsets)).toBeLessThan(6.5);
  });
});

describe('parsePdf text quality', () => {
  let tracemonkey: ParseOutput;
  beforeAll(async () => {
    tracemonkey = await parsed('corpus/formats/pdf/pdfjs__tracemonkey.pdf');
  });

  it('reads a two-column page column by column and joins hyphenated words', () => {
    const page0 = tracemonkey.elements.filter((e) => e.anchor.kind === 'page' && e.anchor.page_index === 0).map((e) => e.text);
    const abstract = page0.findIndex((t) => t.startsWith('Dynamic languages such as JavaScript are more difficult to compile'));
    const keywords = page0.findIndex((t) => t.startsWith('Keywords'));
    const rightColumn = page0.findIndex((t) => t.startsWith('and is used for the application logic'));
    expect(abstract).toBeGreaterThan(0);
    expect(abstract).toBeLessThan(keywords);
    expect(keywords).toBeLessThan(rightColumn);
  });

  it('keeps paragraphs whole and finds headings by type size', async () => {
    const out = await parsed('eval/squad2-dev/docs/001_Computational_complexity_theory.pdf');
    expect(out.elements[0]).toMatchObject({ type: 'heading', level: 1, text: 'Computational_complexity_theory' });
    expect(out.elements[1]?.text).toMatch(/^Computational complexity theory is a branch .* such as an algorithm\.$/);
    expect(out.elements[1]?.section_path).toEqual(['Computational_complexity_theory']);
    // A compound broken at a line end keeps its hyphen when the document writes it hyphenated elsewhere.
    expect(out.elements.map((e) => e.text).join(' ')).toContain('such as polynomial-time reductions or log-space reductions');
  });

  it('puts no spaces between CJK characters', async () => {
    for (const file of evalPdfs.filter((f) => !f.includes('squad2'))) {
      const text = (await parsed(file)).elements.map((e) => e.text).join('\n');
      expect(text).not.toMatch(
        /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}、。] [\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u,
      );
    }
  });

  it('keeps the spaces between Korean words', async () => {
    const out = await parsed('corpus/formats/pdf/unstructured__korean-text-with-tables.pdf');
    expect(out.elements[0]?.text).toBe('할인점·주유·온라인쇼핑몰 1.5% 빅포인트 적립');
  });

  it('reports printed page labels and rotation', async () => {
    const labels = await parsed('corpus/formats/pdf/pdfminer__pagelabels.pdf');
    expect(labels.sourceMap.pages.map((p) => p.page_label)).toEqual(['iii', 'iv', '1', '2', '1']);
    expect(labels.elements[0]?.anchor).toMatchObject({ kind: 'page', page_index: 0, page_label: 'iii' });
    const rotated = await parsed('corpus/formats/pdf/pdfjs__rotation.pdf');
    expect(rotated.sourceMap.pages.map((p) => p.rotation)).toEqual([0, 90]);
    expect(rotated.elements.at(-1)?.text).toBe('This is my second page. It will have a landscape layout. Second line here.');
  });

  it('reads vertical Japanese text column by column, right to left', async () => {
    const out = await parsed('corpus/formats/pdf/pdfjs__vertical.pdf');
    expect(out.elements.map((e) => e.text)).toEqual(['あいうえお', '日本語']);
  });

  it('reads glyphs stacked in columns (vertical Japanese set with a horizontal font) top to bottom', async () => {
    const out = await parsed('corpus/formats/pdf/pdfminer__kampo.pdf');
    const text = out.elements.map((e) => e.text);
    expect(text[0]).toBe('政令第百四十九号');
    expect(text.join('\n')).toContain('内閣は、道路交通法の一部を改正する法律');
  });

  it('reports pages without a text layer when other pages have text', async () => {
    const out = await parsed('corpus/formats/pdf/unstructured__layout-parser-paper-with-empty-pages.pdf');
    const empty = out.diagnostics.filter((d) => d.rule_id === 'pdf/no-text-layer');
    expect(empty.length).toBeGreaterThan(0);
    for (const d of empty) expect(out.sourceMap.pages[d.page_index ?? -1]?.text_source).toBe('none');
  });
});

describe('bad PDFs fail with stable codes', () => {
  const pdf = (bytes: Uint8Array, fileName = 'x.pdf') => parseDocument(bytes, { fileName, format: 'pdf' });

  it('a password-protected PDF', async () => {
    await expect(pdf(readShared('corpus/formats/pdf/unstructured__password.pdf'))).rejects.toMatchObject({
      code: 'PP_PARSE_ENCRYPTED_PDF',
    });
  });

  it('an owner-password-only PDF opens', async () => {
    const out = await parsed('corpus/formats/pdf/unstructured__copy-protected.pdf');
    expect(out.elements.length).toBeGreaterThan(0);
  });

  it('a scan without OCR', async () => {
    await expect(pdf(readShared('corpus/formats/pdf/tika__testOCR.pdf'))).rejects.toMatchObject({
      code: 'PP_PARSE_NO_TEXT',
      message: expect.stringMatching(/OCR/),
    });
  });

  it('a truncated PDF', async () => {
    const whole = readShared('corpus/formats/pdf/pdfjs__tracemonkey.pdf');
    await expect(pdf(whole.slice(0, whole.byteLength >> 1))).rejects.toMatchObject({ code: 'PP_PARSE_CORRUPT' });
  });

  it('HTML bytes handed to the PDF parser', async () => {
    await expect(pdf(new TextEncoder().encode('<!doctype html><html><body>not a pdf</body></html>'))).rejects.toMatchObject({
      code: 'PP_PARSE_CORRUPT',
    });
  });
});

describe('the process after pdf.js has loaded', () => {
  it("keeps the engine's own push, JSON.parse and JSON.stringify (pdf.js's core-js replaces them)", async () => {
    await parsed('corpus/formats/pdf/pdfjs__tracemonkey.pdf');
    expect(Array.prototype.push).toBe(ownPush);
    expect(JSON.parse).toBe(ownParse);
    expect(JSON.stringify).toBe(ownStringify);
  });
});
