import { FormattedMessage } from 'react-intl';
import type { HistoryAnswer } from '../../../api/types.js';
import { useT } from '../../../i18n/useT.js';
import { CitationPill } from '../CitationPill/CitationPill.js';
import styles from './CalculationTable.module.css';

type Calculation = NonNullable<HistoryAnswer['calculation']>;
type Citation = HistoryAnswer['citations'][number];

/**
 * How a computed figure was computed: the expression, then one row per operand — its line item,
 * the value as the document writes it, the period, and its citation mark, which opens the cell.
 */
export function CalculationTable({
  calculation,
  citations,
  question,
  historyId,
}: {
  calculation: Calculation;
  citations: ReadonlyMap<number, Citation>;
  question: string;
  historyId?: string | undefined;
}) {
  const t = useT();
  return (
    <table className={styles.calculation} data-testid="calculation">
      <caption className={styles.caption}>
        <FormattedMessage
          id="calc.caption"
          values={{
            expression: (
              <span className={styles.expression} translate="no" data-testid="calculation-expression">
                {calculation.expression}
              </span>
            ),
          }}
        />
      </caption>
      <thead>
        <tr>
          <th scope="col">{t('calc.operand')}</th>
          <th scope="col">{t('calc.value')}</th>
          <th scope="col">{t('calc.period')}</th>
          <th scope="col">{t('calc.citation')}</th>
        </tr>
      </thead>
      <tbody>
        {calculation.operands.map((operand) => {
          const citation = citations.get(operand.n);
          return (
            <tr key={`${operand.n}:${operand.value}`} data-testid="calculation-operand">
              <td translate="no">{operand.label}</td>
              <td className={styles.value} translate="no">
                {operand.value}
              </td>
              <td translate="no">{operand.period}</td>
              <td>
                {citation ? (
                  <CitationPill citation={citation} question={question} historyId={historyId} testId="calculation-citation" />
                ) : (
                  <span translate="no">[{operand.n}]</span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
