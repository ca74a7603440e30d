import { useState } from 'react';
import { api } from '../../../api/client.js';
import type { Element } from '../../../api/types.js';
import { useT } from '../../../i18n/useT.js';
import { sectionElements, surroundingElements, tableOfContents } from '../context.js';
import styles from './Reader.module.css';

type Mode = 'around' | 'section' | 'parent' | 'contents';

const MODES: Mode[] = ['around', 'section', 'parent', 'contents'];

function clip(text: string): string {
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

function ElementList({ elements, citedId }: { elements: Element[]; citedId: string }) {
  const t = useT();
  return (
    <ol className={styles.contextList}>
      {elements.map((e) => (
        <li key={e.element_id} data-cited={e.element_id === citedId || undefined} data-type={e.type}>
          {e.element_id === citedId && <span className={styles.citedTag}>{t('context.cited')}</span>}
          <span translate="no">{clip(e.text)}</span>
        </li>
      ))}
    </ol>
  );
}

function ModeBody({ mode, elements, element }: { mode: Mode; elements: Element[]; element: Element }) {
  const id = element.element_id;
  const t = useT();
  if (mode === 'around') {
    const { before, after } = surroundingElements(elements, id, 2);
    return <ElementList elements={[...before, element, ...after]} citedId={id} />;
  }
  if (mode === 'contents') {
    const toc = tableOfContents(elements, id);
    if (toc.length === 0) return <p className={styles.muted}>{t('context.noHeadings')}</p>;
    return (
      <ul className={styles.toc}>
        {toc.map((entry) => (
          <li
            key={entry.element_id}
            style={{ paddingLeft: `${(entry.level - 1) * 1}rem` }}
            data-current={entry.current || undefined}
          >
            <span translate="no">{entry.text}</span>
            {entry.current && <span className={styles.citedTag}>{t('context.holdsCitation')}</span>}
          </li>
        ))}
      </ul>
    );
  }
  const depth = element.section_path.length - (mode === 'parent' ? 1 : 0);
  if (mode === 'parent' && element.section_path.length === 0) return <p className={styles.muted}>{t('context.noSection')}</p>;
  return <ElementList elements={sectionElements(elements, id, depth)} citedId={id} />;
}

/** Reading around the citation: neighbours, the enclosing section, its parent, the contents — all labelled as extra context. */
export function ContextPanel({ versionId, element }: { versionId: string; element: Element }) {
  const [elements, setElements] = useState<Element[] | 'loading' | 'error' | null>(null);
  const [mode, setMode] = useState<Mode | null>(null);
  const t = useT();
  const choose = (next: Mode) => {
    setMode(next);
    if (elements !== null && elements !== 'error') return;
    setElements('loading');
    api
      .elements(versionId)
      .then((r) => setElements(r.elements))
      .catch(() => setElements('error'));
  };
  return (
    <section className={styles.context} aria-label={t('context.label')} data-testid="context">
      <fieldset className={styles.contextModes}>
        <legend className="visually-hidden">{t('context.legend')}</legend>
        {MODES.map((m) => (
          <button key={m} type="button" aria-pressed={mode === m} onClick={() => choose(m)}>
            {t(`context.mode.${m}`)}
          </button>
        ))}
      </fieldset>
      {mode && <h2 className={styles.contextTitle}>{t('context.title')}</h2>}
      {elements === 'loading' && <p className={styles.muted}>{t('app.loading')}</p>}
      {elements === 'error' && <p className={styles.muted}>{t('context.loadError')}</p>}
      {mode && Array.isArray(elements) && <ModeBody mode={mode} elements={elements} element={element} />}
    </section>
  );
}
