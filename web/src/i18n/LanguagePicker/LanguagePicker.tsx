import { useLocale } from '../LocaleProvider/LocaleProvider.js';
import { LOCALE_NAMES, LOCALES, type Locale } from '../locales.js';
import { useT } from '../useT.js';
import styles from './LanguagePicker.module.css';

/** The header's language switch; each language is named in its own words. */
export function LanguagePicker() {
  const { locale, setLocale } = useLocale();
  const t = useT();
  return (
    <label className={styles.picker}>
      <span className="visually-hidden">{t('app.language')}</span>
      <select
        className={styles.select}
        data-testid="language-picker"
        value={locale}
        onChange={(e) => setLocale(e.target.value as Locale)}
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
