import type { Collection } from '../../../api/types.js';
import { useT } from '../../../i18n/useT.js';
import styles from './CollectionPicker.module.css';

/** Which collection the page asks, uploads to and lists jobs of. */
export function CollectionPicker<C extends Collection>({
  collections,
  selected,
  onSelect,
}: {
  collections: readonly C[];
  selected: C | null;
  onSelect: (collection: C) => void;
}) {
  const t = useT();
  return (
    <label className={styles.picker}>
      <span className={styles.label}>{t('app.collection')}</span>
      <select
        className={styles.select}
        data-testid="collection-picker"
        value={selected?.collection_id ?? ''}
        disabled={collections.length === 0}
        onChange={(e) => {
          const next = collections.find((c) => c.collection_id === e.target.value);
          if (next) onSelect(next);
        }}
      >
        {collections.map((c) => (
          <option key={c.collection_id} value={c.collection_id} translate="no">
            {c.name}
          </option>
        ))}
      </select>
    </label>
  );
}
