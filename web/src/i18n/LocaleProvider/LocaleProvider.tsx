import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { IntlProvider } from 'react-intl';
import { loadMessages } from '../catalogues.js';
import { type Locale, preferredLocale } from '../locales.js';
import { en, type Messages } from '../messages/en.js';

const REMEMBERED = 'pinpoint.locale';

const LocaleContext = createContext<{ locale: Locale; setLocale: (next: Locale) => void }>({
  locale: 'en',
  setLocale: () => undefined,
});

/** The page's language and the switch to another one (remembered in this browser). */
export const useLocale = () => useContext(LocaleContext);

function rememberedLocale(): string | null {
  try {
    return localStorage.getItem(REMEMBERED);
  } catch {
    return null;
  }
}

/**
 * The language follows the browser (navigator.languages) until the user picks one in the header.
 * Its catalogue is loaded before the page shows, so no English flashes before Japanese or Chinese.
 */
export function LocaleProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(() => preferredLocale(rememberedLocale(), navigator.languages ?? []));
  // the first catalogue is awaited (nothing shows); a switch keeps the page in the old language until the new one is in
  const [loaded, setLoaded] = useState<{ locale: Locale; messages: Messages } | null>(() =>
    locale === 'en' ? { locale, messages: en } : null,
  );
  useEffect(() => {
    let live = true;
    loadMessages(locale)
      .then((messages) => live && setLoaded({ locale, messages }))
      .catch(() => live && setLoaded({ locale: 'en', messages: en }));
    return () => {
      live = false;
    };
  }, [locale]);
  useEffect(() => {
    if (loaded) document.documentElement.lang = loaded.locale;
  }, [loaded]);
  const setLocale = (next: Locale) => {
    localStorage.setItem(REMEMBERED, next);
    setLocaleState(next);
  };
  if (!loaded) return null;
  return (
    <LocaleContext.Provider value={{ locale, setLocale }}>
      <IntlProvider locale={loaded.locale} messages={loaded.messages} defaultLocale="en">
        {children}
      </IntlProvider>
    </LocaleContext.Provider>
  );
}
