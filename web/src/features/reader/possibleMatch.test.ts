import { describe, expect, it } from 'vitest';
import type { Element } from '../../api/types.js';
import { findPossibleMatch } from './possibleMatch.js';

function el(id: string, text: string): Element {
  return { element_id: id, type: 'paragraph', section_path: [], text } as unknown as Element;
}

const elements = [
  el('e1', '梅雨'),
  el('e2', '梅雨は、北海道と小笠原諸島を除く日本、朝鮮半島南部、中国の南部から長江流域にかけての沿海部、および台湾など。'),
  el('e3', 'The same   sentence\nappears here.'),
  el('e4', 'And the same sentence appears here too.'),
];

describe('possible match in another version', () => {
  it('finds the element that contains the quote', () => {
    expect(findPossibleMatch('北海道と小笠原諸島を除く日本', elements)).toEqual({ element: elements[1], count: 1 });
  });

  it('ignores differences in whitespace and counts every element that matches', () => {
    expect(findPossibleMatch('The same sentence appears here.', elements)).toEqual({ element: elements[2], count: 1 });
    expect(findPossibleMatch('same sentence appears here', elements)).toEqual({ element: elements[2], count: 2 });
  });

  it('finds nothing for a quote that is gone, empty or too short to mean anything', () => {
    expect(findPossibleMatch('a sentence that was removed', elements)).toBeNull();
    expect(findPossibleMatch('', elements)).toBeNull();
    expect(findPossibleMatch('梅雨', elements)).toBeNull();
  });

  it('compares composed and decomposed forms alike', () => {
    const cafe = [el('e9', 'Le café est ouvert le dimanche.')];
    expect(findPossibleMatch('cafe\u0301 est ouvert', cafe)?.element.element_id).toBe('e9');
  });
});
