import type { Job, Version } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { anyBusy, formatBytes, rowStateMessage, versionStatus } from './documentStatus.js';

const version = (patch: Partial<Version>): Version =>
  ({ version_id: 'ver_1', state: 'ready', error_code: null, error_message: null, ...patch }) as Version;
const job = (patch: Partial<Job>): Job => ({ job_id: 'job_1', state: 'running', stage: 'parsing', ...patch }) as Job;

describe('documents page status', () => {
  it('names the state, the running stage, and a failure’s code', () => {
    expect(versionStatus(version({ state: 'ready' }))).toEqual({ label: 'state.ready', tone: 'ok' });
    expect(versionStatus(version({ state: 'queued' }))).toEqual({ label: 'state.queued', tone: 'busy' });
    expect(versionStatus(version({ state: 'processing' }), job({ stage: 'indexing' }))).toEqual({
      label: 'stage.indexing',
      tone: 'busy',
    });
    expect(versionStatus(version({ state: 'processing' }))).toEqual({ label: 'state.processing', tone: 'busy' });
    expect(versionStatus(version({ state: 'failed', error_code: 'PP_PARSE_NO_TEXT' }))).toEqual({
      label: 'state.failed',
      tone: 'bad',
      code: 'PP_PARSE_NO_TEXT',
    });
    expect(anyBusy([version({ state: 'ready' }), version({ state: 'queued' })])).toBe(true);
    expect(anyBusy([version({ state: 'failed' })])).toBe(false);
    expect([formatBytes(900), formatBytes(2048), formatBytes(3 * 1024 * 1024)]).toEqual(['900 byte', '2.0 kB', '3.0 MB']);
    expect(formatBytes(2048, 'ja')).toBe('2.0 KB');
  });

  it('names an upload row by its running stage, else its state', () => {
    expect(rowStateMessage({ state: 'running', stage: 'chunking' })).toBe('stage.chunking');
    expect(rowStateMessage({ state: 'ready', stage: 'done' })).toBe('state.ready');
    expect(rowStateMessage({ state: 'running', stage: 'a-stage-from-a-newer-server' })).toBe('state.processing');
  });
});
