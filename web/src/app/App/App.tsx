import { useEffect, useState } from 'react';
import { api } from '../../api/client.js';
import type { Collection } from '../../api/types.js';
import { JobConsole } from '../../features/admin/JobConsole/JobConsole.js';
import { AskView } from '../../features/ask/AskView/AskView.js';
import { Reader } from '../../features/reader/Reader/Reader.js';
import { VersionView } from '../../features/reader/VersionView/VersionView.js';
import { useRoute } from '../useRoute.js';
import styles from './App.module.css';

function useDefaultCollection(): Collection | null {
  const [collection, setCollection] = useState<Collection | null>(null);
  useEffect(() => {
    api
      .collections()
      .then(({ collections }) => setCollection(collections.find((c) => c.name === 'default') ?? collections[0] ?? null))
      .catch(() => setCollection(null));
  }, []);
  return collection;
}

export function App() {
  const [route, navigate] = useRoute();
  const collection = useDefaultCollection();
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
      </header>
      <main className={styles.main}>
        {route.name === 'home' && <AskView collection={collection} question={route.question} navigate={navigate} />}
        {route.name === 'cite' && <Reader key={window.location.hash} route={route} navigate={navigate} />}
        {route.name === 'version' && <VersionView key={window.location.hash} route={route} />}
        {route.name === 'admin' && <JobConsole collection={collection} />}
      </main>
    </div>
  );
}
