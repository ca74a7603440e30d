import type { Job, Version } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import type { DocumentSummary, UploadResult } from '../../api/types.js';
import { applyJob, applyUpload, isSettled, mergeLoaded, rowFromSummary, settleRows } from './uploadRows.js';

const version = (id: string, state: Version['state'], patch: Partial<Version> = {}) =>
  ({ version_id: id, state, error_code: null, error_message: null, ...patch }) as Version;
const summary = (name: string, v: Version) => ({ document: { name }, versions: [v] }) as unknown as DocumentSummary;
const job = (patch: Partial<Job>) =>
  ({
    version_id: 'v1',
    file: 'a.pdf',
    state: 'running',
    stage: 'parsing',
    progress: 30,
    error_code: null,
    error_message: null,
    ...patch,
  }) as Job;

describe('file rows', () => {
  it('shows the latest version of each document', () => {
    expect(rowFromSummary(summary('a.pdf', version('v1', 'ready')))).toMatchObject({
      versionId: 'v1',
      state: 'ready',
      progress: 100,
    });
    expect(rowFromSummary({ document: { name: 'x' }, versions: [] } as unknown as DocumentSummary)).toBeNull();
  });

  it('follows job events and replaces a file row by its newer version', () => {
    let rows = applyJob([], job({}));
    rows = applyJob(rows, job({ state: 'succeeded', stage: 'done', progress: 100 }));
    expect(rows).toEqual([{ versionId: 'v1', file: 'a.pdf', state: 'ready', stage: 'done', progress: 100, error: null }]);
    rows = applyJob(rows, job({ version_id: 'v2', state: 'queued', stage: 'queued', progress: 0 }));
    expect(rows.map((r) => r.versionId)).toEqual(['v2']);
    rows = applyJob(
      rows,
      job({ version_id: 'v3', file: 'b.md', state: 'failed', error_code: 'PP_EMPTY_FILE', error_message: 'empty' }),
    );
    expect(rows[0]).toMatchObject({ file: 'b.md', state: 'failed', error: { code: 'PP_EMPTY_FILE', message: 'empty' } });
    expect(isSettled(rows[0] as never)).toBe(true);
  });

  it('shows re-uploaded bytes as their existing version', () => {
    const r = { file: 'a.pdf', version: version('v1', 'ready'), job: null, created: false } as unknown as UploadResult;
    expect(applyUpload([], r)[0]).toMatchObject({ versionId: 'v1', state: 'ready', progress: 100 });
  });

  it('heals a missed event from the document list', () => {
    const rows = applyJob([], job({}));
    expect(settleRows(rows, [summary('a.pdf', version('v1', 'failed', { error_code: 'PP_X' }))])[0]).toMatchObject({
      state: 'failed',
      error: { code: 'PP_X', message: null },
    });
    expect(settleRows(rows, [summary('a.pdf', version('v1', 'processing'))])[0]?.state).toBe('running');
  });

  it('keeps an upload made while the first file list was loading', () => {
    const uploaded = applyJob([], job({ version_id: 'v9', file: 'new.md', state: 'queued', stage: 'queued', progress: 0 }));
    const stale = [summary('old.pdf', version('v1', 'ready')), summary('new.md', version('v8', 'ready'))];
    const rows = mergeLoaded(uploaded, stale);
    expect(rows.map((r) => [r.versionId, r.file])).toEqual([
      ['v9', 'new.md'],
      ['v1', 'old.pdf'],
    ]);
    expect(mergeLoaded([], stale).map((r) => r.versionId)).toEqual(['v1', 'v8']);
  });
});
