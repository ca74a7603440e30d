import { useEffect, useState } from 'react';
import { api } from '../../api/client.js';
import type { Collection } from '../../api/types.js';
import { JobConsole } from '../../features/admin/JobConsole/JobConsole.js';
import { AskView } from '../../features/ask/AskView/AskView.js';
import { CollectionPicker } from '../../features/library/CollectionPicker/CollectionPicker.js';
import { chooseCollection } from '../../features/library/collectionChoice.js';
import { Reader } from '../../features/reader/Reader/Reader.js';
import { VersionView } from '../../features/reader/VersionView/VersionView.js';
import { useRoute } from '../useRoute.js';
import styles from './App.module.css';

const REMEMBERED = 'pinpoint.collection';

/** The collections and the one the page works on (remembered in this browser). */
function useCollections() {
  const [collections, setCollections] = useState<Collection[]>([]);
  const [collection, setCollection] = useState<Collection | null>(null);
  useEffect(() => {
    api
      .collections()
      .then(({ collections: all }) => {
        setCollections(all);
        setCollection(chooseCollection(all, localStorage.getItem(REMEMBERED)));
      })
      .catch(() => setCollection(null));
  }, []);
  // Views start afresh when the user switches collections (not when the first one arrives: files
  // dropped before it is known wait for it).
  const [switches, setSwitches] = useState(0);
  const select = (next: Collection): void => {
    localStorage.setItem(REMEMBERED, next.collection_id);
    setCollection(next);
    setSwitches((n) => n + 1);
  };
  return { collections, collection, select, switches };
}

export function App() {
  const [route, navigate] = useRoute();
  const { collections, collection, select, switches } = useCollections();
  return (
    <div className={styles.app}>
      <header className={styles.header}>
        <a className={styles.brand} href="#/">
          Pinpoint
        </a>
        <nav aria-label="Main" className={styles.nav}>
          <a href="#/" aria-current={route.name === 'home' ? 'page' : undefined}>
            Ask
          </a>
          <a href="#/admin" aria-current={route.name === 'admin' ? 'page' : undefined}>
            Jobs
          </a>
        </nav>
        <CollectionPicker collections={collections} selected={collection} onSelect={select} />
      </header>
      <main className={styles.main}>
        {route.name === 'home' && (
          <AskView key={switches} collection={collection} question={route.question} navigate={navigate} />
        )}
        {route.name === 'cite' && <Reader key={window.location.hash} route={route} navigate={navigate} />}
        {route.name === 'version' && <VersionView key={window.location.hash} route={route} />}
        {route.name === 'admin' && <JobConsole key={switches} collection={collection} />}
      </main>
    </div>
  );
}
