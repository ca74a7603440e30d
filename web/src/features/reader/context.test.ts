import { describe, expect, it } from 'vitest';
import { surroundingElements } from './context.js';

const els = ['e1', 'e2', 'e3', 'e4', 'e5'].map((element_id) => ({ element_id }));

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
