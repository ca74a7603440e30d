import { useState } from 'react';
import { api } from '../../../api/client.js';
import type { Element } from '../../../api/types.js';
import { surroundingElements } from '../context.js';
import styles from './Reader.module.css';

/** Previous/next elements of the same version, in original order, labelled as extra context. */
export function ContextPanel({ versionId, elementId }: { versionId: string; elementId: string }) {
  const [state, setState] = useState<{ before: Element[]; after: Element[] } | 'loading' | 'error' | null>(null);
  const load = () => {
    setState('loading');
    api
      .elements(versionId)
      .then(({ elements }) => setState(surroundingElements(elements, elementId, 2)))
      .catch(() => setState('error'));
  };
  if (state === null || state === 'loading' || state === 'error') {
    return (
      <div className={styles.context}>
        <button type="button" onClick={load} disabled={state === 'loading'}>
          {state === 'loading' ? 'Loading context…' : 'Show surrounding context'}
        </button>
        {state === 'error' && <span className={styles.muted}> The surrounding text could not be loaded.</span>}
      </div>
    );
  }
  const item = (e: Element) => (
    <li key={e.element_id}>
      {e.section_path.length > 0 && <span className={styles.muted}>{e.section_path.at(-1)} · </span>}
      {e.text.length > 500 ? `${e.text.slice(0, 500)}…` : e.text}
    </li>
  );
  return (
    <section className={styles.context} aria-label="Extra context" data-testid="context">
      <h2 className={styles.contextTitle}>Extra context — not part of the citation</h2>
      {state.before.length > 0 && (
        <>
          <h3 className={styles.contextSub}>Before</h3>
          <ul>{state.before.map(item)}</ul>
        </>
      )}
      {state.after.length > 0 && (
        <>
          <h3 className={styles.contextSub}>After</h3>
          <ul>{state.after.map(item)}</ul>
        </>
      )}
    </section>
  );
}
