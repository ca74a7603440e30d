import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openSpool } from './spool.js';

describe('upload spool', () => {
  it('streams each part to disk with its sha256 and size, chunk by chunk, and removes the folder', async () => {
    const spool = await openSpool();
    const chunks = Array.from({ length: 64 }, (_, i) => Buffer.alloc(64 * 1024, i));
    const whole = Buffer.concat(chunks);
    const file = await spool.write(Readable.from(chunks));
    expect(file.size).toBe(whole.byteLength);
    expect(file.sha256).toBe(createHash('sha256').update(whole).digest('hex'));
    expect(readFileSync(file.path).equals(whole)).toBe(true);
    await spool.remove();
    expect(existsSync(dirname(file.path))).toBe(false);
  });
});
