import { describe, expect, it } from 'vitest';
import { antonymMismatch, numberMismatch, typeSpan } from './answer-type.js';

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

describe('a question that turns its sentence round', () => {
  it('holds a word whose opposite the sentence holds instead', () => {
    const s = 'Phrased as a decision problem, it is the problem of deciding whether the input has a factor less than k.';
    expect(antonymMismatch('What problem is phrased on deciding whether the input has a factor more than k?', s)).toBe(1);
    expect(antonymMismatch('What problem asks whether the input has a factor less than k?', s)).toBe(0);
    // Both words in the question: it asks about the difference, not a turned-round sentence.
    expect(antonymMismatch('Is the factor more or less than k?', s)).toBe(0);
  });

  it('holds a number the sentence lacks while the sentence holds another', () => {
    expect(numberMismatch('What happened in 1990?', 'The treaty was signed in 1980.')).toBe(1);
    expect(numberMismatch('What happened in 1980?', 'The treaty was signed in 1980.')).toBe(0);
    expect(numberMismatch('What happened in 1990?', 'The treaty was signed that year.')).toBe(0);
    expect(numberMismatch('What was signed?', 'The treaty was signed in 1980.')).toBe(0);
  });
});
