import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import type { Collection } from '../../../api/types.js';
import { useErrorText, useT } from '../../../i18n/useT.js';
import { rowStateMessage } from '../documentStatus.js';
import { useUploadRows } from '../useUploadRows.js';
import styles from './UploadPanel.module.css';

export function UploadPanel({ collection }: { collection: Collection | null }) {
  const collectionId = collection?.collection_id;
  const { rows, uploading, error, send } = useUploadRows(collectionId);
  const [dragging, setDragging] = useState(false);
  const t = useT();
  const errorText = useErrorText();

  return (
    <section className={styles.panel} aria-labelledby="files-heading">
      <h2 id="files-heading" className={styles.heading}>
        {t('upload.heading')}
      </h2>
      <label
        className={`${styles.drop} ${dragging ? styles.dragging : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          void send([...e.dataTransfer.files]);
        }}
      >
        <input
          type="file"
          multiple
          className="visually-hidden"
          data-testid="file-input"
          disabled={!collectionId}
          onChange={(e) => {
            void send([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
        <span className={styles.dropText}>
          <FormattedMessage id="upload.drop" values={{ link: (chunks) => <span className={styles.link}>{chunks}</span> }} />
        </span>
        <span className={styles.hint}>{t('upload.formats')}</span>
      </label>
      {uploading !== null && (
        <p className={styles.status} role="status">
          {t('upload.uploading', { share: uploading })}
        </p>
      )}
      {error !== null && (
        <p className={styles.error} role="alert">
          {errorText(error)}
        </p>
      )}
      {rows.length > 0 && (
        <ul className={styles.list} aria-label={t('upload.list')}>
          {rows.map((r) => (
            <li key={r.versionId} className={styles.row} data-state={r.state} data-testid="file-row">
              <span className={styles.name} title={r.file} translate="no">
                {r.file}
              </span>
              <span className={styles.state}>{t(rowStateMessage(r))}</span>
              <progress className={styles.bar} max={100} value={r.progress} aria-label={t('upload.progress', { file: r.file })} />
              {r.error && (
                <span className={styles.rowError} title={r.error.message ?? undefined}>
                  <code>{r.error.code}</code> {errorText(r.error)}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
