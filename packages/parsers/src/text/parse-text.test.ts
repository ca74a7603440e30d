import type { ParseContext } from '@pinpoint/core';
import { PinpointError } from '@pinpoint/core';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { expectTextInvariants, parseShared, sharedFiles } from '../../test/test-support.js';
import { parseDocument } from '../parse.js';
import { decodeText } from './decode.js';

const ctx: ParseContext = { fileName: 'note.txt', format: 'txt' };
const japanese = '梅雨（つゆ、ばいう）は、北海道と小笠原諸島を除く日本、朝鮮半島南部の気象現象である。';
const traditional = '臺灣大學是一所位於臺北市的公立研究型綜合大學，創立於日治時期。';
const simplified = '铜仁市是中华人民共和国贵州省下辖的地级市，位于贵州省东北部。';

describe('parseText on every corpus and eval TXT file', () => {
  const files = [
    ...sharedFiles('corpus/formats/txt', ['txt']),
    ...sharedFiles('eval/jsquad-dev/docs', ['txt']).slice(0, 4),
    ...sharedFiles('eval/drcd-dev/docs', ['txt']).slice(0, 4),
    ...sharedFiles('eval/squad2-dev/docs', ['txt']),
  ].filter((f) => !/empty|all-whitespace/.test(f));
  it.each(files)('%s holds the text invariants', async (file) => {
    const { out } = await parseShared(file);
    expect(out.elements.length).toBeGreaterThan(0);
    expectTextInvariants(out);
  });

  it('decodes UTF-16 BE/LE and UTF-32 by their BOM', async () => {
    for (const name of [
      'unstructured__fake-text-utf-16-be.txt',
      'unstructured__fake-text-utf-16.txt',
      'unstructured__fake-text-utf-32.txt',
    ]) {
      const { out } = await parseShared(`corpus/formats/txt/${name}`);
      expect(out.elements[0]?.text).toMatch(/^[\x20-\x7e]/);
      expect(out.elements.map((e) => e.text).join('')).not.toMatch(/\u0000|\ufffd/);
    }
  });

  it('detects Windows-1252 and CP866 text without declarations', async () => {
    const cp1252 = await parseShared('corpus/formats/txt/tika__testTXT_win-1252.txt');
    expect(cp1252.out.diagnostics.map((d) => d.rule_id)).toContain('text/charset-guessed');
    expect(cp1252.out.elements.map((e) => e.text).join(' ')).not.toMatch(/\ufffd/);
    const cp866 = await parseShared('corpus/formats/txt/tika__russian.cp866.txt');
    expect(cp866.out.elements.map((e) => e.text).join(' ')).toMatch(/[а-яА-Я]{4}/);
  });

  it('blank or whitespace-only files fail with a stable code', async () => {
    for (const file of ['corpus/formats/txt/unstructured__fake-text-all-whitespace.txt']) {
      await expect(parseShared(file)).rejects.toMatchObject({ code: 'PP_PARSE_NO_TEXT' });
    }
    await expect(parseDocument(new Uint8Array(), ctx)).rejects.toBeInstanceOf(PinpointError);
  });
});

describe('decodeText', () => {
  it.each([
    ['shift_jis', japanese],
    ['euc-jp', japanese],
    ['gb18030', simplified],
    ['big5', traditional],
  ])('recovers %s text without replacement characters', (charset, sample) => {
    const text = `${sample}\n\n${sample}${sample}\n`;
    const decoded = decodeText(new Uint8Array(iconv.encode(text, charset)));
    expect(decoded.text).toBe(text);
  });

  it('uses UTF-16 NUL patterns when there is no BOM', () => {
    const text = 'Plain ASCII text, stored as UTF-16 without a byte-order mark.\n';
    expect(decodeText(new Uint8Array(iconv.encode(text, 'utf-16le'))).text).toBe(text);
    expect(decodeText(new Uint8Array(iconv.encode(text, 'utf-16be'))).text).toBe(text);
  });

  it('strips the BOM so offsets start at the first character', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('Title\n\n𠮷野家 is a paragraph.')]);
    const out = await parseDocument(bytes, ctx);
    const decoded = expectTextInvariants(out);
    expect(decoded.startsWith('Title')).toBe(true);
    expect(out.elements.map((e) => [e.type, e.anchor.kind === 'text' ? [e.anchor.start, e.anchor.end] : []])).toEqual([
      ['title', [0, 5]],
      ['paragraph', [7, 26]],
    ]);
    expect(out.elements[1]?.section_path).toEqual(['Title']);
  });
});
