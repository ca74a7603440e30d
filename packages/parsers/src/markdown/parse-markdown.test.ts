import type { ParseContext } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { expectTextInvariants, parseShared, sharedFiles } from '../../test/test-support.js';
import { parseDocument } from '../parse.js';

const ctx: ParseContext = { fileName: 'doc.md', format: 'md' };
const parse = (text: string) => parseDocument(new TextEncoder().encode(text), ctx);

describe('parseMarkdown on every corpus and eval Markdown file', () => {
  const files = [
    ...sharedFiles('corpus/formats/md', ['md']),
    ...sharedFiles('corpus/formats/markdown', ['markdown']),
    ...sharedFiles('eval/jsquad-dev/docs', ['md']).slice(0, 4),
    ...sharedFiles('eval/drcd-dev/docs', ['md']).slice(0, 4),
    ...sharedFiles('eval/squad2-dev/docs', ['md']),
  ];
  it.each(files)('%s holds the text invariants', async (file) => {
    const { format, out } = await parseShared(file);
    expect(format).toBe('md');
    expect(out.elements.length).toBeGreaterThan(0);
    expectTextInvariants(out);
  });
});

describe('parseMarkdown structure', () => {
  it('excludes heading markers from ranges and builds the heading trail', async () => {
    const out = await parse(
      '# Policy\n\nIntro text.\n\n## Travel ##\n\nBook early.\n\n### Hotels\n\n- one\n- two\n  - nested\n\n## Meals\n\nReceipts.\n',
    );
    expectTextInvariants(out);
    expect(out.elements.map((e) => [e.type, e.text, e.section_path.join(' > ')])).toEqual([
      ['heading', 'Policy', ''],
      ['paragraph', 'Intro text.', 'Policy'],
      ['heading', 'Travel', 'Policy'],
      ['paragraph', 'Book early.', 'Policy > Travel'],
      ['heading', 'Hotels', 'Policy > Travel'],
      ['list_item', 'one', 'Policy > Travel > Hotels'],
      ['list_item', 'two', 'Policy > Travel > Hotels'],
      ['list_item', 'nested', 'Policy > Travel > Hotels'],
      ['heading', 'Meals', 'Policy'],
      ['paragraph', 'Receipts.', 'Policy > Meals'],
    ]);
  });

  it('shows headings without their markup in the trail, while the heading element keeps the exact source text', async () => {
    const out = await parse('## The `fetch` **API**\n\nBody.\n');
    expectTextInvariants(out);
    expect(out.elements.map((e) => [e.text, e.section_path])).toEqual([
      ['The `fetch` **API**', []],
      ['Body.', ['The fetch API']],
    ]);
  });

  it('counts astral characters as one codepoint (remark offsets are UTF-16)', async () => {
    const out = await parse('# 𠮷野家\n\n𠮷𠮷 menu: 牛丼 and 𠮷.\n');
    const text = expectTextInvariants(out);
    const para = out.elements[1];
    expect(para?.anchor).toMatchObject({ kind: 'text', start: 7, end: 25 });
    expect(Array.from(text).slice(7, 25).join('')).toBe('𠮷𠮷 menu: 牛丼 and 𠮷.');
  });

  it('keeps code inside fences, tables, quotes and front matter apart', async () => {
    const out = await parse(
      '---\ntitle: x\n---\n\n> quoted line\n> more\n\n```js\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
    );
    expectTextInvariants(out);
    expect(out.elements.map((e) => [e.type, e.text])).toEqual([
      ['quote', 'quoted line\n> more'],
      ['code', 'const a = 1;'],
      ['table', '| a | b |\n|---|---|\n| 1 | 2 |'],
    ]);
  });

  it('decodes legacy-encoded Markdown', async () => {
    const { out } = await parseShared('corpus/formats/md/unstructured__umlauts-non-utf8.md');
    expect(out.elements.map((e) => e.text)).toContain('äöüß');
  });
});

describe('parseMarkdown on very long lines', () => {
  it('keeps block structure and exact ranges when lines run to hundreds of kilobytes', async () => {
    const words = 'the **quick** brown `fox` jumps [over](https://example.org) the lazy dog. '.repeat(3000);
    const image = `![chart](data:image/png;base64,${'iVBORw0KGgo'.repeat(20_000)})`;
    const text = `# Long ${words}\n\n${words}\n\n${image}\n\n- item ${words}\n`;
    const out = await parse(text);
    expectTextInvariants(out);
    expect(out.elements.map((e) => e.type)).toEqual(['heading', 'paragraph', 'list_item']);
    expect(out.elements[1]?.text).toBe(words.trim());
    expect(out.elements[2]?.section_path[0]).toBe(`Long ${words}`.trim());
  });
});
