import { describe, expect, it } from 'vitest';
import { typeSpan } from './answer-type.js';

describe('typeSpan for a number', () => {
  const q = 'How many lanterns does the guild light at dusk?';
  it('finds digits and numbers written as words, not the question’s own', () => {
    expect(typeSpan('The guild lights seven lanterns at dusk.', 'number', q)?.text).toBe('seven');
    expect(typeSpan('It has twenty-five rooms.', 'number', q)).toMatchObject({ text: 'twenty-five', start: 7, end: 18 });
    expect(typeSpan('It lit 12 lanterns.', 'number', q)?.text).toBe('12');
    expect(typeSpan('It is one of the oldest guilds.', 'number', q)).toBeNull();
    expect(typeSpan('Seven guilds met.', 'number', 'Which of the seven guilds met?')).toBeNull();
  });
});
