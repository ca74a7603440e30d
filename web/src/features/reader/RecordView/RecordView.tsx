import { useEffect, useRef, useState } from 'react';
import type { RecordEntry, RecordView as RecordViewData } from '../../../api/types.js';
import { useT } from '../../../i18n/useT.js';
import type { CellRange } from '../records.js';
import {
  cellInRange,
  documentBlocks,
  gridRows,
  groupBySheet,
  parseCellRange,
  parseCellRef,
  recordLayout,
  usedColumns,
} from '../records.js';
import { scrollToTableRow } from '../scrollTo.js';
import { ColumnLetters, TableGrid } from '../TableGrid/TableGrid.js';
import grid from '../TableGrid/TableGrid.module.css';
import { recordTableGrid } from '../tableGrid.js';
import styles from './RecordView.module.css';

interface Props {
  view: RecordViewData;
  highlight: boolean;
}

interface Cited {
  recordId: string | null;
  range: CellRange | null;
  ref: React.RefObject<HTMLElement | null>;
}

type Cell = NonNullable<RecordEntry['cells']>[number];

function cellsByColumn(r: RecordEntry): Map<number, Cell> {
  const out = new Map<number, Cell>();
  (r.cells ?? []).forEach((c, i) => {
    out.set(parseCellRef(c.ref)?.col ?? i, c);
  });
  return out;
}

/** A grid row: its row head (row number or file lines), and the cited markers when it is the cited record. */
function GridRow({
  isCited,
  cited,
  head,
  headTitle,
  className,
  children,
}: {
  isCited: boolean;
  cited: Cited;
  head: React.ReactNode;
  headTitle?: string;
  className?: string | undefined;
  children: React.ReactNode;
}) {
  return (
    <tr
      ref={isCited ? (cited.ref as React.RefObject<HTMLTableRowElement>) : undefined}
      data-cited={isCited || undefined}
      data-testid={isCited ? 'cited-record' : undefined}
      className={className}
    >
      <th scope="row" className={grid.rowHead} title={headTitle}>
        {head}
      </th>
      {children}
    </tr>
  );
}

/** One cell of a grid row, marked when the citation's cell range holds it. */
function GridCell({ cell, isCited, cited }: { cell: Cell | undefined; isCited: boolean; cited: Cited }) {
  const hit = isCited && cell !== undefined && cellInRange(cell.ref, cited.range);
  return (
    <td data-cited-cell={hit || undefined} data-testid={hit ? 'cited-cell' : undefined}>
      {cell?.value ?? ''}
    </td>
  );
}

/** A cited record that is not a grid row (a sheet title): shown as one full-width row. */
function TitleRow({ record, span, cited }: { record: RecordEntry; span: number; cited: Cited }) {
  return (
    <tr ref={cited.ref as React.RefObject<HTMLTableRowElement>} data-cited data-testid="cited-record">
      <th scope="row" className={grid.rowHead} />
      <td colSpan={Math.max(1, span)}>{record.text}</td>
    </tr>
  );
}

function SheetTable({ records, cited }: { records: RecordEntry[]; cited: Cited }) {
  const cols = usedColumns(records);
  return (
    <table className={grid.grid} translate="no">
      <thead>
        <ColumnLetters columns={cols} />
      </thead>
      <tbody>
        {records.map((r) => {
          const isCited = r.record_id === cited.recordId;
          if (!r.cells?.length)
            return isCited ? <TitleRow key={r.record_id} record={r} span={cols.length} cited={cited} /> : null;
          const refs = new Map((r.cells ?? []).map((c) => [parseCellRef(c.ref)?.col ?? -1, c]));
          return (
            <GridRow
              key={r.record_id}
              isCited={isCited}
              cited={cited}
              head={r.row ?? ''}
              className={r.kind === 'header' ? grid.headerRow : undefined}
            >
              {cols.map((c) => (
                <GridCell key={c} cell={refs.get(c)} isCited={isCited} cited={cited} />
              ))}
            </GridRow>
          );
        })}
      </tbody>
    </table>
  );
}

function CsvTable({ records, cited }: { records: RecordEntry[]; cited: Cited }) {
  const width = Math.max(0, ...records.map((r) => r.cells?.length ?? 0));
  const t = useT();
  return (
    <table className={grid.grid} translate="no">
      <tbody>
        {records.map((r) => {
          const isCited = r.record_id === cited.recordId;
          const cells = cellsByColumn(r);
          const [a, b] = r.physical_lines ?? [];
          return (
            <GridRow
              key={r.record_id}
              isCited={isCited}
              cited={cited}
              head={a === undefined ? '' : a === b ? a : `${a}–${b}`}
              headTitle={t('record.line')}
              className={r.kind === 'header' ? grid.headerRow : undefined}
            >
              {width === 0 ? (
                <td>{r.text}</td>
              ) : (
                Array.from({ length: width }, (_, i) => <GridCell key={i} cell={cells.get(i)} isCited={isCited} cited={cited} />)
              )}
            </GridRow>
          );
        })}
      </tbody>
    </table>
  );
}

function FlowRecord({ record: r, cited }: { record: RecordEntry; cited: Cited }) {
  const isCited = r.record_id === cited.recordId;
  const cls = r.kind === 'heading' ? `${styles.block} ${styles.heading} ${styles[`h${r.level ?? 2}`] ?? ''}` : styles.block;
  return (
    <div
      ref={isCited ? (cited.ref as React.RefObject<HTMLDivElement>) : undefined}
      className={cls}
      data-cited={isCited || undefined}
      data-testid={isCited ? 'cited-record' : undefined}
    >
      <span className={styles.gutter} aria-hidden="true">
        {r.paragraph_index !== undefined ? `¶${r.paragraph_index + 1}` : ''}
      </span>
      <span className={styles.blockText} translate="no">
        {r.cells ? r.cells.map((c) => c.value).join(' │ ') : r.text}
      </span>
    </div>
  );
}

/** A Word document: headings and paragraphs as a flow, each table drawn as a grid with its cited cell. */
function DocumentFlow({ records, cited }: { records: RecordEntry[]; cited: Cited }) {
  const t = useT();
  return (
    <>
      {documentBlocks(records).map((block) =>
        block.kind === 'record' ? (
          <FlowRecord key={block.record.record_id} record={block.record} cited={cited} />
        ) : (
          <div key={`t${block.tableIndex}`} className={styles.tableBlock}>
            <TableGrid
              grid={recordTableGrid(block.records, cited)}
              caption={t('grid.caption', { number: block.tableIndex + 1 })}
              citedRow={cited.ref as React.RefObject<HTMLTableRowElement>}
            />
          </div>
        ),
      )}
    </>
  );
}

export function RecordView({ view, highlight }: Props) {
  const layout = recordLayout(view.records);
  const sheets = groupBySheet(view.records);
  const citedSheet = view.sheet ?? view.records.find((r) => r.record_id === view.record_id)?.sheet;
  const [sheet, setSheet] = useState(citedSheet ?? [...sheets.keys()][0] ?? '');
  const ref = useRef<HTMLElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const t = useT();
  const cited: Cited = {
    recordId: highlight ? view.record_id : null,
    range: highlight && view.cell_range ? parseCellRange(view.cell_range) : null,
    ref,
  };
  useEffect(() => {
    if (sheet === (citedSheet ?? sheet)) scrollToTableRow(box.current, ref.current);
  }, [sheet, citedSheet]);

  if (layout === 'document') {
    return (
      <div ref={box} className={styles.flow}>
        <DocumentFlow records={view.records} cited={cited} />
      </div>
    );
  }
  if (layout === 'csv') {
    return (
      <div ref={box} className={styles.scroll}>
        <CsvTable records={view.records} cited={cited} />
      </div>
    );
  }
  return (
    <div>
      <div className={styles.tabs} role="tablist" aria-label={t('record.sheets')}>
        {[...sheets.keys()].map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={name === sheet}
            className={styles.tab}
            onClick={() => setSheet(name)}
          >
            {name ? <span translate="no">{name}</span> : t('record.sheet')}
            {name === citedSheet && (
              <span className={styles.citedDot} title={t('record.cited')}>
                <span className="visually-hidden">{t('record.citedHidden')}</span>
              </span>
            )}
          </button>
        ))}
      </div>
      <div ref={box} className={styles.scroll} role="tabpanel">
        <SheetTable records={gridRows(sheets.get(sheet) ?? [], view.record_id)} cited={cited} />
      </div>
    </div>
  );
}
