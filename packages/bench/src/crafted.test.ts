import { fileURLToPath } from 'node:url';
import { parseDocument } from '@pinpoint/parsers';
import { craftedInputs } from '@pinpoint/testing';
import { describe, expect, it } from 'vitest';

const corpus = fileURLToPath(new URL('../../../../shared/corpus/formats/', import.meta.url));

describe('crafted bad inputs', () => {
  it.each(craftedInputs(corpus))('$fileName fails with $expected', async ({ fileName, format, bytes, expected }) => {
    await expect(parseDocument(bytes, { fileName, format })).rejects.toMatchObject({ code: expected });
  });
});
