import type { Citation, TextAnchor } from '@pinpoint/core';
import { CodepointIndex } from '@pinpoint/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/test-app.js';
import { settle, startTestApp, uploadFiles } from '../test/test-app.js';

/** windows-1252 bytes (these characters are all below U+0100): the original's bytes are not the decoded source's UTF-8. */
const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

const page = latin1(
  '<html><head><meta charset="windows-1252"><title>Caf\u00e9 notes</title></head><body>\n' +
    '<p>The caf\u00e9 opened in 1921.   It served <b>espresso &amp; cr\u00e8me</b> to the harbour workers every morning. ' +
    'Its owner was Ad\u00e8le Fontaine.</p>\n</body></html>',
);

describe('a cited sentence of an HTML page resolves to its own span of the stored source', () => {
  let t: TestApp;
  let collectionId: string;
  beforeAll(async () => {
    t = await startTestApp();
    collectionId = (await t.app.inject({ method: 'POST', url: '/api/collections', payload: { name: 'raw' } })).json()
      .collection_id;
  });
  afterAll(async () => t?.close());

  it('narrows raw to the cited sentences, and the source artifact the reader reads holds it', async () => {
    const [uploaded] = await uploadFiles(t.app, collectionId, [{ name: 'cafe.html', bytes: page }]);
    const [version] = await settle(t.app, [uploaded!.version.version_id]);
    expect(version?.state).toBe('ready');
    const answer = (
      await t.app.inject({
        method: 'POST',
        url: '/api/ask',
        payload: { question: 'What did the café serve to the harbour workers?' },
      })
    ).json();
    const cite = answer.citations.find((c: Citation) => c.file === 'cafe.html') as Citation;
    // the answer sentence with the neighbour it leans on, one passage of the paragraph — not its last sentence
    expect(cite.quote).toBe('The café opened in 1921. It served espresso & crème to the harbour workers every morning.');
    const anchor = cite.anchor as TextAnchor;
    const resolved = (
      await t.app.inject({
        method: 'POST',
        url: '/api/citations/resolve',
        payload: { version_id: cite.version_id, element_id: cite.element_id, anchor },
      })
    ).json();
    expect(resolved.view.raw).toEqual(anchor.raw);
    const source = await t.app.inject({ url: `/api/versions/${cite.version_id}/artifacts/text?name=source.html` });
    expect(source.statusCode).toBe(200);
    const text = source.rawPayload.toString('utf8');
    const index = new CodepointIndex(text);
    const raw = text.slice(index.toUtf16(anchor.raw?.start ?? 0), index.toUtf16(anchor.raw?.end ?? 0));
    expect(raw).toBe(
      'The caf\u00e9 opened in 1921.   It served <b>espresso &amp; cr\u00e8me</b> to the harbour workers every morning.',
    );
    // the reader's raw span comes from the stored map, not from what the caller sends
    const forged = (
      await t.app.inject({
        method: 'POST',
        url: '/api/citations/resolve',
        payload: { version_id: cite.version_id, element_id: cite.element_id, anchor: { ...anchor, raw: { start: 0, end: 5 } } },
      })
    ).json();
    expect(forged.view.raw).toEqual(anchor.raw);
  }, 120_000);
});
