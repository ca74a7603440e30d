import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MdNode, MdText } from './markdownTree.js';
import { markdownTree } from './markdownTree.js';

const texts = (n: MdNode): MdText[] => (n.kind === 'text' ? [n] : n.children.flatMap(texts));
const tags = (n: MdNode): string[] => (n.kind === 'text' ? [] : [n.tag, ...n.children.flatMap(tags)]);
const cps = (s: string, a: number, b: number) => Array.from(s).slice(a, b).join('');

/** Every shown character is the source character at its offset, and is marked exactly when inside the range. */
function expectExact(source: string, start: number, end: number): MdText[] {
  const shown = texts(markdownTree(source, { start, end }));
  let last = -1;
  for (const t of shown) {
    expect(cps(source, t.start, t.end)).toBe(t.text);
    expect(t.start).toBeGreaterThanOrEqual(last);
    last = t.end;
    const inside = t.start >= start && t.end <= end;
    const outside = t.end <= start || t.start >= end;
    expect(inside || outside, `piece [${t.start}, ${t.end}) straddles the range`).toBe(true);
    expect(t.marked).toBe(inside && t.end > t.start);
  }
  return shown.filter((t) => t.marked);
}

describe('markdownTree', () => {
  const source = [
    '---',
    'title: 梅雨',
    '---',
    '# 梅雨の期間',
    '',
    'The **rainy season** lasts _about_ six weeks; 𠮷野家 stays open \\* always.',
    '',
    '- one `code span`',
    '- two [link](https://example.org) and [bad](javascript:alert(1))',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    '',
    '<script>alert(1)</script>',
    '',
    '```js',
    'const x = 1;',
    '```',
  ].join('\n');

  it('renders headings, emphasis, lists, tables and code as elements, raw HTML as text', () => {
    const tree = markdownTree(source, null);
    expect(tags(tree)).toEqual(expect.arrayContaining(['h1', 'strong', 'em', 'ul', 'li', 'code', 'table', 'th', 'td', 'pre']));
    const links = JSON.stringify(tree).match(/"href":"[^"]*"/g);
    expect(links).toEqual(['"href":"https://example.org"']);
    const shown = texts(tree)
      .map((t) => t.text)
      .join('');
    expect(shown).toContain('<script>alert(1)</script>');
    expect(shown).toContain('rainy season');
    expect(shown).not.toContain('**');
  });

  it('marks exactly the cited codepoints, across markup, astral characters and escapes', () => {
    const cp = (needle: string) => Array.from(source.slice(0, source.indexOf(needle))).length;
    const start = cp('rainy');
    const end = cp('野家') + 2;
    const marked = expectExact(source, start, end);
    expect(marked.map((t) => t.text).join('')).toBe('rainy season lasts about six weeks; 𠮷野家');
    expectExact(source, cp('\\*'), cp('\\*') + 2);
    expectExact(source, cp('code span') + 2, cp('code span') + 6);
    expectExact(source, 0, Array.from(source).length);
  });

  it('keeps every range of a real Markdown file exact', () => {
    const real = readFileSync(new URL('../../../../../shared/eval/jsquad-dev/docs/000_梅雨.md', import.meta.url), 'utf8');
    const n = Array.from(real).length;
    for (let start = 0; start < n; start += Math.max(1, Math.floor(n / 37))) {
      const marked = expectExact(real, start, Math.min(n, start + 41));
      expect(marked.length).toBeGreaterThan(0);
    }
  });

  it('throws on a range outside the text instead of marking a guess', () => {
    expect(() => markdownTree('# a', { start: 2, end: 9 })).toThrow(RangeError);
  });
});
