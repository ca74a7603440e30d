import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import { errorMessage } from './errorText.js';
import type { MessageId } from './messages/en.js';

type Values = Record<string, string | number | Date | null | undefined>;
export type Translate = (id: MessageId, values?: Values) => string;

/** `t(id, values)`: one catalogue message as text, in the page's language. */
export function useT(): Translate {
  const intl = useIntl();
  return useCallback((id: MessageId, values?: Values) => intl.formatMessage({ id }, values), [intl]);
}

/**
 * A failure as one sentence in the page's language: the localised sentence of its `PP_*` code;
 * an error the catalogue has no sentence for (not from the API) keeps its own message.
 */
export function useErrorText(): (error: unknown) => string {
  const t = useT();
  return useCallback(
    (error: unknown) => {
      const known = errorMessage(error);
      if (known) return t(known.id, known.values);
      return error instanceof Error && error.message ? error.message : t('error.unknown');
    },
    [t],
  );
}
