import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createError, errorCodes, toPinpointError } from './errors.js';

describe('error codes', () => {
  it('every code is documented in docs/errors.md', () => {
    const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
    for (const code of Object.keys(errorCodes)) expect(doc, code).toContain(`\`${code}\``);
  });
  it('carries status, retryability and cause', () => {
    const cause = new Error('inner');
    const err = createError('PP_PARSE_CORRUPT', 'truncated', cause);
    expect(err.status).toBe(422);
    expect(err.retryable).toBe(false);
    expect(err.cause).toBe(cause);
    expect(toPinpointError(new Error('x')).code).toBe('PP_INTERNAL');
  });
  it('keeps a library text apart from the message, as detail', () => {
    const err = createError('PP_PARSE_CORRUPT', 'The workbook could not be read.', new TypeError('Cannot read properties'));
    expect(err.message).toBe('The workbook could not be read.');
    expect(err.detail).toBe('TypeError: Cannot read properties');
    expect(createError('PP_PARSE_CORRUPT', 'outer', err).detail).toBe(err.detail);
  });
  it('retries what can pass and fails at once what cannot', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(toPinpointError(refused)).toMatchObject({ code: 'PP_STORE_UNAVAILABLE', status: 503, retryable: true });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    expect(toPinpointError(shutdown)).toMatchObject({ code: 'PP_STORE_UNAVAILABLE', retryable: true });
    expect(toPinpointError(new Error('Connection is closed.'))).toMatchObject({ code: 'PP_STORE_UNAVAILABLE' });
    expect(toPinpointError(new Error('Connection terminated unexpectedly'))).toMatchObject({ retryable: true });
    const syntax = Object.assign(new Error('syntax error at or near "x"'), { code: '42601' });
    expect(toPinpointError(syntax)).toMatchObject({ code: 'PP_INTERNAL', retryable: false });
    expect(createError('PP_DEPENDENCY_MISSING', 'soffice is not installed').retryable).toBe(false);
    expect(createError('PP_PARSE_CRASHED', 'child died').retryable).toBe(true);
    expect(createError('PP_PROVIDER_UNAVAILABLE', 'down').retryable).toBe(true);
  });
});
