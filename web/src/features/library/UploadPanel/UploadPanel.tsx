import { useState } from 'react';
import type { Collection } from '../../../api/types.js';
import { useUploadRows } from '../useUploadRows.js';
import styles from './UploadPanel.module.css';

export function UploadPanel({ collection }: { collection: Collection | null }) {
  const collectionId = collection?.collection_id;
  const { rows, uploading, error, send } = useUploadRows(collectionId);
  const [dragging, setDragging] = useState(false);

  return (
    <section className={styles.panel} aria-labelledby="files-heading">
      <h2 id="files-heading" className={styles.heading}>
        Files
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
          Drop files here or <span className={styles.link}>choose files</span>
        </span>
        <span className={styles.hint}>PDF, Word, Excel, PowerPoint, CSV, Markdown, HTML, JSON, text, images</span>
      </label>
      {uploading !== null && (
        <p className={styles.status} role="status">
          Uploading… {Math.round(uploading * 100)}%
        </p>
      )}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {rows.length > 0 && (
        <ul className={styles.list} aria-label="Uploaded files">
          {rows.map((r) => (
            <li key={r.versionId} className={styles.row} data-state={r.state} data-testid="file-row">
              <span className={styles.name} title={r.file}>
                {r.file}
              </span>
              <span className={styles.state}>{r.state === 'running' ? r.stage : r.state}</span>
              <progress className={styles.bar} max={100} value={r.progress} aria-label={`${r.file} progress`} />
              {r.error && <span className={styles.rowError}>{r.error}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
