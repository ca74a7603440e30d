import { readFileSync } from 'node:fs';
import { seededRandom } from '@pinpoint/testing';
import { describe, expect, it } from 'vitest';
import { mutate, operators, operatorsFor } from './mutate.js';

const docx = new Uint8Array(
  readFileSync(new URL('../../../../shared/corpus/formats/docx/markitdown__test.docx', import.meta.url)),
);

describe('fuzz mutations', () => {
  it('are deterministic in their seed and change the file', async () => {
    for (const op of operators.filter((o) => operatorsFor('docx').includes(o))) {
      const a = await mutate(docx, 'docx', op, seededRandom(7));
      const b = await mutate(docx, 'docx', op, seededRandom(7));
      expect(Buffer.compare(a, b), op).toBe(0);
      expect(Buffer.compare(a, docx), op).not.toBe(0);
    }
  });

  it('offer long lines and deep nesting only where the format has them', () => {
    expect(operatorsFor('pdf')).not.toContain('long-line');
    expect(operatorsFor('csv')).toContain('long-line');
    expect(operatorsFor('json')).toContain('deep-nesting');
    expect(operatorsFor('xlsx')).toContain('zip-entry');
  });
});
