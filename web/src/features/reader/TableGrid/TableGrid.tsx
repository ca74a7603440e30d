import type { ReactNode, RefObject } from 'react';
import { useT } from '../../../i18n/useT.js';
import { columnLetters } from '../records.js';
import { type GridCell, type GridRow, headRowCount, type TableGrid as TableGridModel } from '../tableGrid.js';
import styles from './TableGrid.module.css';

/** A cell's text; the cited part inside a <mark> when the cited range is narrower than the cell. */
function CellText({ cell }: { cell: GridCell }) {
  const t = useT();
  const mark = cell.mark;
  if (!mark || (mark.before === '' && mark.after === '')) return cell.text;
  return (
    <>
      {mark.before}
      <mark className={styles.mark} data-testid="grid-mark" title={t('grid.cited')}>
        {mark.marked}
      </mark>
      {mark.after}
    </>
  );
}

/** The head row of a grid: a corner over the row numbers, then each column's letter. */
export function ColumnLetters({ columns }: { columns: readonly number[] }) {
  const t = useT();
  return (
    <tr>
      <th className={styles.corner} aria-label={t('record.row')} />
      {columns.map((c) => (
        <th key={c} scope="col" className={styles.colHead}>
          {columnLetters(c)}
        </th>
      ))}
    </tr>
  );
}

function GridRowView({ row, citedRow }: { row: GridRow; citedRow?: RefObject<HTMLTableRowElement | null> | undefined }) {
  return (
    <tr
      ref={row.cited ? citedRow : undefined}
      className={row.header ? styles.headerRow : undefined}
      data-header={row.header || undefined}
      data-cited={row.cited || undefined}
      data-testid={row.cited ? 'cited-record' : undefined}
    >
      <th scope="row" className={styles.rowHead}>
        {row.number}
      </th>
      {row.cells.map((cell, col) => (
        <td
          key={col}
          data-ref={cell?.ref}
          data-cited-cell={cell?.mark ? true : undefined}
          data-testid={cell?.mark ? 'cited-cell' : undefined}
        >
          {cell && <CellText cell={cell} />}
        </td>
      ))}
    </tr>
  );
}

/**
 * A table drawn as a grid: column letters and row numbers as the citations' cell references name
 * them, header rows set apart and kept in view (with the letters) while the body scrolls, the
 * cited row lighter and the cited cell marked.
 */
export function TableGrid({
  grid,
  caption,
  citedRow,
}: {
  grid: TableGridModel;
  caption?: ReactNode;
  citedRow?: RefObject<HTMLTableRowElement | null> | undefined;
}) {
  const columns = Array.from({ length: grid.columns }, (_, i) => i);
  const head = headRowCount(grid.rows);
  return (
    <table className={styles.grid} data-testid="table-grid">
      {caption && <caption className={styles.caption}>{caption}</caption>}
      <thead className={styles.stickyHead} translate="no">
        <ColumnLetters columns={columns} />
        {grid.rows.slice(0, head).map((row) => (
          <GridRowView key={row.key} row={row} citedRow={citedRow} />
        ))}
      </thead>
      <tbody translate="no">
        {grid.rows.slice(head).map((row) => (
          <GridRowView key={row.key} row={row} citedRow={citedRow} />
        ))}
      </tbody>
    </table>
  );
}
