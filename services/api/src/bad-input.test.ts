import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/test-app.js';
import { settle, startTestApp, uploadFiles } from '../test/test-app.js';

const shared = new URL('../../../../shared/', import.meta.url);
const read = (path: string): Uint8Array => new Uint8Array(readFileSync(new URL(path, shared)));

describe('bad input ends as a failed version with a stable code; the service keeps serving', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Without OCR, so the scanned PDF shows the no-text-layer outcome (with OCR it would be read).
    t = await startTestApp({ PINPOINT_OCR: 'none' });
  });
  afterAll(async () => t?.close());

  it('fails each bad file on its own and keeps the good one', async () => {
    const col = (await t.app.inject({ method: 'POST', url: '/api/collections', payload: { name: 'bad' } })).json().collection_id;
    const realPdf = read('corpus/formats/pdf/pdfjs__tracemonkey.pdf');
    const files = [
      { name: 'empty.txt', bytes: new Uint8Array(), code: 'PP_EMPTY_FILE' },
      {
        name: 'really-html.pdf',
        bytes: new TextEncoder().encode('<!doctype html><html><body><p>not a pdf</p></body></html>'),
        code: 'PP_FORMAT_MISMATCH',
      },
      { name: 'password.pdf', bytes: read('corpus/formats/pdf/unstructured__password.pdf'), code: 'PP_PARSE_ENCRYPTED_PDF' },
      { name: 'scan.pdf', bytes: read('corpus/formats/pdf/kreuzberg__non_searchable.pdf'), code: 'PP_PARSE_NO_TEXT' },
      { name: 'truncated.pdf', bytes: realPdf.slice(0, Math.floor(realPdf.length / 3)), code: 'PP_PARSE_CORRUPT' },
      { name: 'notes.xyz', bytes: new TextEncoder().encode('what is this'), code: 'PP_UNSUPPORTED_FORMAT' },
      { name: 'good.txt', bytes: new TextEncoder().encode('The warranty lasts twenty-four months from delivery.\n'), code: null },
    ];
    const results = await uploadFiles(t.app, col, files);
    const versions = await settle(
      t.app,
      results.map((r) => r.version.version_id),
    );
    const got = Object.fromEntries(versions.map((v) => [v.original_name, v.error_code]));
    expect(got).toEqual(Object.fromEntries(files.map((f) => [f.name, f.code])));
    for (const v of versions.filter((x) => x.error_code)) {
      expect(v.state).toBe('failed');
      expect(v.error_message?.length).toBeGreaterThan(10);
    }
    const jobs = (await t.app.inject({ url: `/api/jobs?collection_id=${col}&state=failed` })).json().jobs;
    expect(jobs).toHaveLength(6);

    expect((await t.app.inject({ url: '/api/health' })).json().ok).toBe(true);
    const hits = (
      await t.app.inject({ method: 'POST', url: '/api/search', payload: { query: 'warranty months', collection_id: col } })
    ).json().hits;
    expect(hits[0]?.file).toBe('good.txt');
  }, 240_000);

  it('answers request errors with the error shape and the documented status', async () => {
    const missing = await t.app.inject({ url: '/api/versions/ver_missing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      error: { code: 'PP_NOT_FOUND', message: expect.any(String), request_id: expect.any(String) },
    });
    const invalid = await t.app.inject({ method: 'POST', url: '/api/ask', payload: { question: '' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.code).toBe('PP_VALIDATION');
    const noRoute = await t.app.inject({ url: '/api/nope' });
    expect(noRoute.json().error.code).toBe('PP_NOT_FOUND');
    const noCollection = await uploadFiles(t.app, 'col_missing', [{ name: 'a.txt', bytes: new Uint8Array([65]) }]).catch(
      (e: Error) => e.message,
    );
    expect(noCollection).toMatch(/404/);
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/api/ask',
      headers: { 'content-type': 'application/xml' },
      payload: '<question>warranty</question>',
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json()).toEqual({
      error: { code: 'PP_UNSUPPORTED_MEDIA_TYPE', message: expect.any(String), request_id: expect.any(String) },
    });
  });

  it('rejects a file above the upload limit with PP_FILE_TOO_LARGE (413) and stores nothing', async () => {
    const small = await startTestApp({ PINPOINT_MAX_UPLOAD_MB: '0.001', PINPOINT_WORKER: 'false' });
    try {
      const col = (await small.app.inject({ method: 'POST', url: '/api/collections', payload: { name: 'limits' } })).json()
        .collection_id;
      const err = await uploadFiles(small.app, col, [{ name: 'big.txt', bytes: new Uint8Array(4096).fill(65) }]).catch(
        (e: Error) => e.message,
      );
      expect(err).toMatch(/413.*PP_FILE_TOO_LARGE/);
      expect((await small.app.inject({ url: '/api/documents' })).json().documents).toEqual([]);
    } finally {
      await small.close();
    }
  });
});
