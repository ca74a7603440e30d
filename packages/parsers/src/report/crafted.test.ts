import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../parse.js';
import { craftedInputs } from './crafted.js';

const corpus = fileURLToPath(new URL('../../../../../shared/corpus/formats/', import.meta.url));

describe('crafted bad inputs', () => {
  it.each(craftedInputs(corpus))('$fileName fails with $expected', async ({ fileName, format, bytes, expected }) => {
    await expect(parseDocument(bytes, { fileName, format })).rejects.toMatchObject({ code: expected });
  });
});
