import { useEffect, useRef, useState } from 'react';
import { api } from '../../../api/client.js';
import type { Element } from '../../../api/types.js';
import { useT } from '../../../i18n/useT.js';
import { scrollToTableRow } from '../scrollTo.js';
import { TableGrid } from '../TableGrid/TableGrid.js';
import { type CodepointRange, elementTableGrid, type TableGrid as TableGridModel } from '../tableGrid.js';
import styles from './CitedTable.module.css';

function useVersionElements(versionId: string): Element[] | 'error' | null {
  const [elements, setElements] = useState<Element[] | 'error' | null>(null);
  useEffect(() => {
    let live = true;
    api
      .elements(versionId)
      .then((r) => live && setElements(r.elements))
      .catch(() => live && setElements('error'));
    return () => {
      live = false;
    };
  }, [versionId]);
  return elements;
}

function gridOrError(elements: Element[], elementId: string, cited: CodepointRange | null): TableGridModel | 'error' | null {
  try {
    return elementTableGrid(elements, elementId, cited);
  } catch {
    // a cell range that does not fit its element's text: the text view below still marks the citation
    return 'error';
  }
}

/**
 * The table that holds a cited text passage (an HTML table row), drawn as a grid from the
 * version's elements with the cited codepoints marked in their cell; the text view stays below.
 */
export function CitedTable({ versionId, element, cited }: { versionId: string; element: Element; cited: CodepointRange | null }) {
  const elements = useVersionElements(versionId);
  const box = useRef<HTMLDivElement>(null);
  const row = useRef<HTMLTableRowElement>(null);
  const t = useT();
  const grid = Array.isArray(elements) ? gridOrError(elements, element.element_id, cited) : elements;
  const drawn = grid !== null && grid !== 'error';
  useEffect(() => scrollToTableRow(box.current, row.current), [drawn]);
  if (grid === null) return null;
  if (grid === 'error') return <p className={styles.muted}>{t('grid.loadError')}</p>;
  return (
    <div ref={box} className={styles.scroll}>
      <TableGrid grid={grid} caption={t('grid.htmlCaption', { number: (element.table?.index ?? 0) + 1 })} citedRow={row} />
    </div>
  );
}
