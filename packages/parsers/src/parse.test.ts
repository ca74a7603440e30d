import { describe, expect, it } from 'vitest';
import { rawTextIn } from './messages/raw-text.js';
import { parseDocument } from './parse.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseDocument failure messages', () => {
  it.each([
    ['deep.json', 'json', `${'['.repeat(200_000)}1${']'.repeat(200_000)}`],
    ['deep.html', 'html', `<html><body>${'<div>'.repeat(200_000)}deep${'</div>'.repeat(200_000)}</body></html>`],
  ] as const)('%s, nested 200,000 levels, fails as corrupt in our own words', async (fileName, format, text) => {
    const failure = await parseDocument(bytes(text), { fileName, format }).catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: 'PP_PARSE_CORRUPT' });
    const message = (failure as Error).message;
    expect(rawTextIn(message), message).toBeUndefined();
  });

  it('refuses HTML nested past the depth limit before building its tree, and reads HTML that omits optional end tags', async () => {
    const deep = `<html><body>${'<span>'.repeat(6000)}deep</body></html>`;
    const started = performance.now();
    await expect(parseDocument(bytes(deep), { fileName: 'deep.html', format: 'html' })).rejects.toMatchObject({
      code: 'PP_PARSE_CORRUPT',
      message: 'deep.html nests its markup more than 5000 levels deep; it was not read.',
    });
    expect(performance.now() - started).toBeLessThan(2000);
    const loose = `<html><body><ul>${'<li><p>item'.repeat(8000)}</ul></body></html>`;
    const out = await parseDocument(bytes(loose), { fileName: 'loose.html', format: 'html' });
    expect(out.elements.length).toBeGreaterThan(1000);
  });
});
