import { useState } from 'react';
import { api } from '../../../api/client.js';
import type { Element } from '../../../api/types.js';
import { sectionElements, surroundingElements, tableOfContents } from '../context.js';
import styles from './Reader.module.css';

type Mode = 'around' | 'section' | 'parent' | 'contents';

const MODES: { mode: Mode; label: string }[] = [
  { mode: 'around', label: 'Before and after' },
  { mode: 'section', label: 'Whole section' },
  { mode: 'parent', label: 'Parent section' },
  { mode: 'contents', label: 'Contents' },
];

function clip(text: string): string {
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

function ElementList({ elements, citedId }: { elements: Element[]; citedId: string }) {
  return (
    <ol className={styles.contextList}>
      {elements.map((e) => (
        <li key={e.element_id} data-cited={e.element_id === citedId || undefined} data-type={e.type}>
          {e.element_id === citedId && <span className={styles.citedTag}>cited · </span>}
          {clip(e.text)}
        </li>
      ))}
    </ol>
  );
}

function ModeBody({ mode, elements, element }: { mode: Mode; elements: Element[]; element: Element }) {
  const id = element.element_id;
  if (mode === 'around') {
    const { before, after } = surroundingElements(elements, id, 2);
    return <ElementList elements={[...before, element, ...after]} citedId={id} />;
  }
  if (mode === 'contents') {
    const toc = tableOfContents(elements, id);
    if (toc.length === 0) return <p className={styles.muted}>This document has no headings.</p>;
    return (
      <ul className={styles.toc}>
        {toc.map((t) => (
          <li key={t.element_id} style={{ paddingLeft: `${(t.level - 1) * 1}rem` }} data-current={t.current || undefined}>
            {t.text}
            {t.current && <span className={styles.citedTag}> · holds the citation</span>}
          </li>
        ))}
      </ul>
    );
  }
  const depth = element.section_path.length - (mode === 'parent' ? 1 : 0);
  if (mode === 'parent' && element.section_path.length === 0)
    return <p className={styles.muted}>This passage is not inside a section.</p>;
  return <ElementList elements={sectionElements(elements, id, depth)} citedId={id} />;
}

/** Reading around the citation: neighbours, the enclosing section, its parent, the contents — all labelled as extra context. */
export function ContextPanel({ versionId, element }: { versionId: string; element: Element }) {
  const [elements, setElements] = useState<Element[] | 'loading' | 'error' | null>(null);
  const [mode, setMode] = useState<Mode | null>(null);
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
    <section className={styles.context} aria-label="Extra context" data-testid="context">
      <fieldset className={styles.contextModes}>
        <legend className="visually-hidden">Read around the citation</legend>
        {MODES.map((m) => (
          <button key={m.mode} type="button" aria-pressed={mode === m.mode} onClick={() => choose(m.mode)}>
            {m.label}
          </button>
        ))}
      </fieldset>
      {mode && <h2 className={styles.contextTitle}>Extra context — not part of the citation</h2>}
      {elements === 'loading' && <p className={styles.muted}>Loading…</p>}
      {elements === 'error' && <p className={styles.muted}>The surrounding text could not be loaded.</p>}
      {mode && Array.isArray(elements) && <ModeBody mode={mode} elements={elements} element={element} />}
    </section>
  );
}
