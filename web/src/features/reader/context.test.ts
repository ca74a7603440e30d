import { describe, expect, it } from 'vitest';
import { sectionElements, surroundingElements, tableOfContents } from './context.js';

const els = ['e1', 'e2', 'e3', 'e4', 'e5'].map((element_id) => ({ element_id }));

const doc = [
  { element_id: 'h1', type: 'heading', level: 1, section_path: [], text: 'Intro' },
  { element_id: 'p1', type: 'paragraph', section_path: ['Intro'], text: 'a' },
  { element_id: 'h2', type: 'heading', level: 2, section_path: ['Intro'], text: 'Details' },
  { element_id: 'p2', type: 'paragraph', section_path: ['Intro', 'Details'], text: 'b' },
  { element_id: 'p3', type: 'paragraph', section_path: ['Intro', 'Details'], text: 'c' },
  { element_id: 'h3', type: 'heading', level: 1, section_path: [], text: 'Other' },
  { element_id: 'p4', type: 'paragraph', section_path: ['Other'], text: 'd' },
];

describe('surroundingElements', () => {
  it('takes neighbours in original order, clipped at the ends', () => {
    expect(surroundingElements(els, 'e3', 1)).toEqual({ before: [{ element_id: 'e2' }], after: [{ element_id: 'e4' }] });
    expect(surroundingElements(els, 'e1', 2).before).toEqual([]);
    expect(surroundingElements(els, 'e5', 2).after).toEqual([]);
  });

  it('returns nothing for an unknown element rather than guessing', () => {
    expect(surroundingElements(els, 'nope', 2)).toEqual({ before: [], after: [] });
  });
});

describe('sections', () => {
  it('reads the enclosing section and its parent', () => {
    expect(sectionElements(doc, 'p3', 2).map((e) => e.element_id)).toEqual(['p2', 'p3']);
    expect(sectionElements(doc, 'p3', 1).map((e) => e.element_id)).toEqual(['p1', 'h2', 'p2', 'p3']);
    expect(sectionElements(doc, 'missing', 1)).toEqual([]);
  });

  it('caps a long section around the cited element', () => {
    const long = Array.from({ length: 200 }, (_, i) => ({
      element_id: `x${i}`,
      type: 'paragraph',
      section_path: ['S'],
      text: '',
    }));
    const part = sectionElements(long, 'x100', 1, 20);
    expect(part.length).toBe(20);
    expect(part.some((e) => e.element_id === 'x100')).toBe(true);
  });

  it('builds the contents with the cited section marked', () => {
    const toc = tableOfContents(doc, 'p3');
    expect(toc.map((t) => [t.text, t.level, t.current])).toEqual([
      ['Intro', 1, false],
      ['Details', 2, true],
      ['Other', 1, false],
    ]);
  });
});
