import { readFileSync } from 'node:fs';
import type { Citation, PageAnchor } from '@pinpoint/core';
import { sha256Hex, sliceCodepoints } from '@pinpoint/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/test-app.js';
import { settle, startTestApp, uploadFiles } from '../test/test-app.js';

const shared = new URL('../../../../shared/', import.meta.url);
const evalDoc = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`eval/jsquad-dev/docs/${name}`, shared)));

describe('the API end to end (upload → ingest → ask → cite → download)', () => {
  let t: TestApp;
  let collectionId: string;
  const md = evalDoc('000_梅雨.md');
  const pdf = evalDoc('001_グスタフ_マーラー.pdf');

  beforeAll(async () => {
    t = await startTestApp();
    const res = await t.app.inject({ method: 'POST', url: '/api/collections', payload: { name: 'e2e' } });
    expect(res.statusCode).toBe(201);
    collectionId = res.json().collection_id;
  });
  afterAll(async () => t?.close());

  it('ingests a Markdown file and a PDF, answers with citations that resolve to the cited text', async () => {
    const results = await uploadFiles(t.app, collectionId, [
      { name: '000_梅雨.md', bytes: md },
      { name: '001_グスタフ_マーラー.pdf', bytes: pdf },
    ]);
    expect(results.map((r) => r.created)).toEqual([true, true]);
    const versions = await settle(
      t.app,
      results.map((r) => r.version.version_id),
    );
    expect(versions.map((v) => [v.state, v.error_code])).toEqual([
      ['ready', null],
      ['ready', null],
    ]);
    expect(versions[1]?.stats.pages).toBeGreaterThan(0);

    const ask = await t.app.inject({
      method: 'POST',
      url: '/api/ask',
      payload: { question: 'シベリアから中国大陸にかけての広範囲を冷たく乾燥させる気団は？', collection_id: collectionId },
    });
    expect(ask.statusCode).toBe(200);
    const answer = ask.json();
    expect(answer.refused).toBe(false);
    expect(answer.retrieved[0].file).toBe('000_梅雨.md');
    const cite: Citation = answer.citations[0];
    expect(cite.file).toBe('000_梅雨.md');

    const resolved = await t.app.inject({
      method: 'POST',
      url: '/api/citations/resolve',
      payload: { version_id: cite.version_id, element_id: cite.element_id, anchor: cite.anchor },
    });
    expect(resolved.statusCode).toBe(200);
    const r = resolved.json();
    expect(r.precision).toBe('exact');
    expect(r.view.kind).toBe('text');
    expect(sliceCodepoints(r.view.text, r.view.start, r.view.end)).toBe(cite.quote);
    expect(r.newer_version_id).toBeNull();

    const pdfAsk = await t.app.inject({
      method: 'POST',
      url: '/api/ask',
      payload: { question: 'マーラーは、結婚などのためにユダヤ教から何に改宗したか？' },
    });
    const pdfCite: Citation | undefined = pdfAsk.json().citations.find((c: Citation) => c.file.endsWith('.pdf'));
    expect(pdfCite?.anchor.kind).toBe('page');
    const page = (
      await t.app.inject({
        method: 'POST',
        url: '/api/citations/resolve',
        payload: { version_id: pdfCite!.version_id, element_id: pdfCite!.element_id, anchor: pdfCite!.anchor },
      })
    ).json();
    expect(page.view).toMatchObject({ kind: 'page', page_index: pdfCite!.page_index, artifact: 'original' });
    expect(page.view.boxes.length).toBeGreaterThan(0);
    expect(page.precision).toBe('exact');
    // the quote is the text under the cited boxes (the sentence), not the whole paragraph
    expect(page.quote.replace(/\s+/g, '')).toContain(pdfCite!.quote.replace(/\s+/g, ''));
    expect(page.quote.length).toBeLessThanOrEqual(page.element.text.length);
    const anchor = pdfCite!.anchor as PageAnchor;
    const forged = (
      await t.app.inject({
        method: 'POST',
        url: '/api/citations/resolve',
        payload: {
          version_id: pdfCite!.version_id,
          element_id: pdfCite!.element_id,
          anchor: { ...anchor, boxes: [[0, 0, anchor.page_width, anchor.page_height]] },
        },
      })
    ).json();
    expect(forged.precision).toBe('unresolved');
    expect(forged.view.boxes).toEqual(page.element.anchor.boxes);
    const art = await t.app.inject({ url: page.view.artifact_url });
    expect(art.headers['x-content-sha256']).toBe(sha256Hex(pdf));
  }, 240_000);

  it('downloads the original byte-identical through a signed URL, and rejects tampered or expired ones', async () => {
    const [doc] = (await t.app.inject({ url: `/api/documents?collection_id=${collectionId}` })).json().documents;
    const versionId = doc.latest_ready_version_id;
    const { url } = (await t.app.inject({ url: `/api/versions/${versionId}/download-url` })).json();
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(sha256Hex(res.rawPayload)).toBe(sha256Hex(md));
    expect(res.headers['x-content-sha256']).toBe(sha256Hex(md));
    expect(res.rawPayload.equals(Buffer.from(md))).toBe(true);

    const tampered = url.replace(/sig=(.)/, (_m: string, c: string) => `sig=${c === '0' ? '1' : '0'}`);
    expect((await t.app.inject({ url: tampered })).json().error.code).toBe('PP_UNAUTHORIZED');
    const longer = url.replace(/expires=(\d+)/, (_m: string, e: string) => `expires=${Number(e) + 1}`);
    expect((await t.app.inject({ url: longer })).statusCode).toBe(401);
    const expired = url.replace(/expires=\d+/, 'expires=1000');
    expect((await t.app.inject({ url: expired })).statusCode).toBe(401);
  });

  it('creates nothing for the same bytes and a new version for changed bytes; old citations keep resolving', async () => {
    const jobsBefore = (await t.app.inject({ url: '/api/jobs' })).json().jobs.length;
    const [same] = await uploadFiles(t.app, collectionId, [{ name: '000_梅雨.md', bytes: md }]);
    expect(same?.created).toBe(false);
    expect(same?.version.number).toBe(1);
    expect((await t.app.inject({ url: '/api/jobs' })).json().jobs.length).toBe(jobsBefore);

    const old = (
      await t.app.inject({
        method: 'POST',
        url: '/api/ask',
        payload: { question: 'シベリアから中国大陸にかけての広範囲を冷たく乾燥させる気団は？' },
      })
    ).json().citations[0];
    const changed = new Uint8Array([...md, ...new TextEncoder().encode('\n\n追記：梅雨明けは七月下旬である。\n')]);
    const [next] = await uploadFiles(t.app, collectionId, [{ name: '000_梅雨.md', bytes: changed }]);
    expect(next).toMatchObject({ created: true, version: { number: 2 } });
    const [v2] = await settle(t.app, [next!.version.version_id]);
    expect(v2?.state).toBe('ready');

    const again = (
      await t.app.inject({
        method: 'POST',
        url: '/api/citations/resolve',
        payload: { version_id: old.version_id, element_id: old.element_id, anchor: old.anchor },
      })
    ).json();
    expect(again.precision).toBe('exact');
    expect(again.newer_version_id).toBe(v2?.version_id);
    const hits = (
      await t.app.inject({ method: 'POST', url: '/api/search', payload: { query: '梅雨', collection_id: collectionId } })
    ).json().hits;
    expect(hits.every((h: { version_id: string }) => h.version_id !== old.version_id)).toBe(true);
  }, 240_000);

  it('answers 409 when a derived artifact no longer matches its hash', async () => {
    const [doc] = (await t.app.inject({ url: `/api/documents?collection_id=${collectionId}` })).json().documents;
    const versionId = doc.latest_ready_version_id;
    const text = await t.engine.ports.metadata.getArtifact(versionId, 'text');
    await t.engine.ports.blobs.put(text!.blob_key, new TextEncoder().encode('tampered'));
    const res = await t.app.inject({ url: `/api/versions/${versionId}/artifacts/text` });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('PP_ARTIFACT_HASH_MISMATCH');
  });
});
