import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import type { HistoryAnswer } from '../../api/types.js';
import { gateReasonMessage, refusalReasonMessage } from './answerText.js';

/**
 * The answer view's reason line in the page's language: the gate's reason from its code and params
 * (the question's words quoted and listed the language's way), else the refusal's reason code. An
 * answer from an older server, with only the English line, shows that line.
 */
export function useReasonText(): (answer: Pick<HistoryAnswer, 'gate' | 'refused' | 'refusal_reason'>) => string | null {
  const intl = useIntl();
  return useCallback(
    (answer) => {
      const message = gateReasonMessage(answer.gate);
      if (message) {
        const quoted = message.words.slice(0, 3).map((word) => intl.formatMessage({ id: 'reason.quoted' }, { word }));
        const type = message.id === 'reason.answeredIncluding' ? 'conjunction' : 'disjunction';
        const words = intl.formatList(quoted, { type });
        return intl.formatMessage({ id: message.id }, { ...message.values, words });
      }
      if (answer.gate?.reason) return answer.gate.reason;
      if (!answer.refused) return null;
      const refusal = refusalReasonMessage(answer.refusal_reason);
      return refusal ? intl.formatMessage({ id: refusal }) : (answer.refusal_reason ?? null);
    },
    [intl],
  );
}
