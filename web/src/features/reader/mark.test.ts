import { describe, expect, it } from 'vitest';
import { markedParts } from './mark.js';

describe('markedParts', () => {
  it('splits the quote around the marked answer', () => {
    expect(markedParts('Harvard was founded in 1636 by vote.', '1636')).toEqual([
      { text: 'Harvard was founded in ', marked: false },
      { text: '1636', marked: true },
      { text: ' by vote.', marked: false },
    ]);
  });
  it('keeps the quote whole without a mark or when the mark is not in it', () => {
    expect(markedParts('No year here.', undefined)).toEqual([{ text: 'No year here.', marked: false }]);
    expect(markedParts('No year here.', '1999')).toEqual([{ text: 'No year here.', marked: false }]);
  });
});
