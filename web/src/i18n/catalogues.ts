import type { Locale } from './locales.js';
import { en, type Messages } from './messages/en.js';

/** English is in the main bundle (the fallback); every other catalogue is its own chunk, loaded when chosen. */
export async function loadMessages(locale: Locale): Promise<Messages> {
  if (locale === 'ja') return (await import('./messages/ja.js')).ja;
  if (locale === 'zh-Hans') return (await import('./messages/zh-Hans.js')).zhHans;
  if (locale === 'zh-Hant') return (await import('./messages/zh-Hant.js')).zhHant;
  return en;
}
