import { describe, expect, it } from 'vitest';
import { errorMessage } from './errorText.js';
import { matchLocale, preferredLocale } from './locales.js';

describe('the page language', () => {
  it('maps browser tags to the four languages, Chinese by script or region', () => {
    expect(['ja-JP', 'ja', 'en-GB', 'zh-CN', 'zh', 'zh-SG', 'zh-Hans-HK'].map(matchLocale)).toEqual([
      'ja',
      'ja',
      'en',
      'zh-Hans',
      'zh-Hans',
      'zh-Hans',
      'zh-Hans',
    ]);
    expect(['zh-TW', 'zh-HK', 'zh-Hant', 'zh_Hant_TW', 'zh-MO'].map(matchLocale)).toEqual(Array(5).fill('zh-Hant'));
    expect(matchLocale('fr-FR')).toBeNull();
  });

  it('follows the browser’s first language it speaks, unless the user picked one', () => {
    expect(preferredLocale(null, ['fr-FR', 'ja-JP', 'en-US'])).toBe('ja');
    expect(preferredLocale(null, ['fr-FR'])).toBe('en');
    expect(preferredLocale('zh-Hant', ['ja-JP'])).toBe('zh-Hant');
    expect(preferredLocale('klingon', ['zh-TW'])).toBe('zh-Hant');
  });
});

describe('error sentences', () => {
  it('words an API error by its code, and the client’s own failures', () => {
    expect(errorMessage({ code: 'PP_EMPTY_FILE', message: 'The file has zero bytes.' })).toEqual({ id: 'error.PP_EMPTY_FILE' });
    expect(errorMessage({ code: 'NETWORK' })).toEqual({ id: 'error.network' });
    expect(errorMessage({ code: 'HTTP_502' })).toEqual({ id: 'error.http', values: { status: '502' } });
    expect(errorMessage({ code: 'PP_FROM_A_NEWER_SERVER' })).toBeNull();
    expect(errorMessage(new Error('plain'))).toBeNull();
  });
});
