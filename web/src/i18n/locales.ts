/** The languages the SPA speaks. Chinese is split by script: 简体 (zh-Hans) and 繁體 (zh-Hant, Taiwan usage). */
export const LOCALES = ['en', 'ja', 'zh-Hans', 'zh-Hant'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language in its own words (an endonym is never translated). */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  ja: '日本語',
  'zh-Hans': '简体中文',
  'zh-Hant': '繁體中文',
};

const TRADITIONAL_REGIONS = new Set(['tw', 'hk', 'mo']);

/** The SPA language for one BCP 47 tag (`ja-JP`, `zh-TW`, `zh-Hant-HK`, `zh-CN`…), or null when it speaks none of it. */
export function matchLocale(tag: string): Locale | null {
  const parts = tag.trim().toLowerCase().replaceAll('_', '-').split('-');
  const [language, ...rest] = parts;
  if (language === 'en') return 'en';
  if (language === 'ja') return 'ja';
  if (language !== 'zh') return null;
  if (rest.includes('hant')) return 'zh-Hant';
  if (rest.includes('hans')) return 'zh-Hans';
  return rest.some((r) => TRADITIONAL_REGIONS.has(r)) ? 'zh-Hant' : 'zh-Hans';
}

/** The language to start in: the one the user picked in this browser, else the browser's first one the SPA speaks. */
export function preferredLocale(remembered: string | null, browserLanguages: readonly string[]): Locale {
  if (remembered && (LOCALES as readonly string[]).includes(remembered)) return remembered as Locale;
  for (const tag of browserLanguages) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return 'en';
}
