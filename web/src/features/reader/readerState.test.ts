import type { Version } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/messages/en.js';
import { checkResolvedVersion, describeReaderError, precisionInfo, versionNotice } from './readerState.js';

const version = { version_id: 'ver_1', number: 1 } as Version;

describe('precision', () => {
  it('draws exact and element citations, never unresolved ones', () => {
    expect(precisionInfo('exact').drawHighlight).toBe(true);
    expect(precisionInfo('element').drawHighlight).toBe(true);
    expect(precisionInfo('unresolved').drawHighlight).toBe(false);
    expect(en[precisionInfo('unresolved').label]).toBe('Unresolved');
  });
});

describe('version changes', () => {
  it('says nothing when the cited version is the newest', () => {
    expect(versionNotice({ version, newer_version_id: null })).toEqual({ kind: 'current' });
    expect(versionNotice({ version, newer_version_id: 'ver_1' })).toEqual({ kind: 'current' });
  });

  it('offers a newer version without moving the citation', () => {
    expect(versionNotice({ version, newer_version_id: 'ver_2' })).toEqual({
      kind: 'newer',
      newerVersionId: 'ver_2',
      citedNumber: 1,
    });
  });

  it('treats an answer for another version as a problem, not a view', () => {
    expect(checkResolvedVersion({ version }, 'ver_1')).toBeNull();
    expect(en[checkResolvedVersion({ version }, 'ver_0')?.title ?? 'app.loading']).toMatch(/another version/);
  });
});

describe('errors', () => {
  it('shows a hash mismatch as an error that refuses to guess', () => {
    const p = describeReaderError({ code: 'PP_ARTIFACT_HASH_MISMATCH', status: 409, message: 'records.jsonl changed' });
    expect(en[p.title]).toMatch(/no longer matches/);
    expect('id' in p.detail && en[p.detail.id]).toMatch(/will not guess/);
  });

  it('describes missing and other failures', () => {
    expect(en[describeReaderError({ status: 404 }).title]).toMatch(/no longer exists/);
    expect(describeReaderError({ message: 'boom' }).detail).toEqual({ error: { message: 'boom' } });
  });
});
