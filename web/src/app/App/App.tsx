import { api } from '../../api/client.js';
import type { ReadableCollection, SessionInfo } from '../../api/types.js';
import { JobConsole } from '../../features/admin/JobConsole/JobConsole.js';
import { AskView } from '../../features/ask/AskView/AskView.js';
import { SignIn } from '../../features/auth/SignIn/SignIn.js';
import { TokensView } from '../../features/auth/TokensView/TokensView.js';
import { HistoryView } from '../../features/history/HistoryView/HistoryView.js';
import { AcceptInvite } from '../../features/invitations/AcceptInvite/AcceptInvite.js';
import { CollectionPicker } from '../../features/library/CollectionPicker/CollectionPicker.js';
import { DocumentsView } from '../../features/library/DocumentsView/DocumentsView.js';
import { MembersView } from '../../features/members/MembersView/MembersView.js';
import { Reader } from '../../features/reader/Reader/Reader.js';
import { VersionView } from '../../features/reader/VersionView/VersionView.js';
import { LanguagePicker } from '../../i18n/LanguagePicker/LanguagePicker.js';
import { useErrorText, useT } from '../../i18n/useT.js';
import type { Route } from '../route.js';
import { useCollections, useSession } from '../session.js';
import { useRoute } from '../useRoute.js';
import styles from './App.module.css';

/** The token of an invitation link (`/invite/<token>`), or null on any other page. */
function invitationToken(pathname: string): string | null {
  const m = /^\/invite\/([^/]+)$/.exec(pathname);
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

function Nav({ route, session, collection }: { route: Route; session: SessionInfo; collection: ReadableCollection | null }) {
  const current = (name: Route['name']) => (route.name === name ? 'page' : undefined);
  const authOff = session.auth === 'off';
  const t = useT();
  return (
    <nav aria-label={t('nav.label')} className={styles.nav}>
      <a href="#/" aria-current={current('home')}>
        {t('nav.ask')}
      </a>
      <a href="#/documents" aria-current={current('documents')}>
        {t('nav.documents')}
      </a>
      {!authOff && (
        <a href="#/history" aria-current={current('history')}>
          {t('nav.history')}
        </a>
      )}
      {!authOff && collection?.role === 'admin' && (
        <a href="#/members" aria-current={current('members')}>
          {t('nav.members')}
        </a>
      )}
      {!authOff && (
        <a href="#/tokens" aria-current={current('tokens')}>
          {t('nav.tokens')}
        </a>
      )}
      {(authOff || session.user?.admin) && (
        <a href="#/admin" aria-current={current('admin')}>
          {t('nav.jobs')}
        </a>
      )}
    </nav>
  );
}

export function App() {
  const [route, navigate] = useRoute();
  const [session, setSession, error] = useSession();
  const signedIn = session !== null && (session.auth === 'off' || session.user !== null);
  const { collections, collection, select, switches } = useCollections(signedIn);
  const t = useT();
  const errorText = useErrorText();
  if (!session) return <p className={styles.main}>{error ? errorText(error) : t('app.loading')}</p>;
  const invitation = invitationToken(window.location.pathname);
  if (invitation) return <AcceptInvite token={invitation} signedInEmail={session.user?.email ?? null} />;
  if (!signedIn) return <SignIn setup={session.needs_setup} onSignedIn={setSession} />;
  const signOut = () => api.logout().finally(() => setSession({ ...session, user: null, csrf_token: null }));
  return (
    <div className={styles.app}>
      <header className={styles.header}>
        <a className={styles.brand} href="#/">
          Pinpoint
        </a>
        <Nav route={route} session={session} collection={collection} />
        <span className={styles.spacer} />
        <CollectionPicker collections={collections} selected={collection} onSelect={select} />
        <LanguagePicker />
        {session.user && (
          <span className={styles.user}>
            <span translate="no">{session.user.email}</span>
            <button type="button" className={styles.signOut} onClick={signOut}>
              {t('app.signOut')}
            </button>
          </span>
        )}
      </header>
      <main className={styles.main}>
        {route.name === 'home' && (
          <AskView key={switches} collection={collection} question={route.question} scope={route.scope} navigate={navigate} />
        )}
        {route.name === 'cite' && <Reader key={window.location.hash} route={route} navigate={navigate} />}
        {route.name === 'version' && <VersionView key={window.location.hash} route={route} />}
        {route.name === 'admin' && <JobConsole key={switches} collection={collection} />}
        {route.name === 'members' && <MembersView key={switches} collection={collection} />}
        {route.name === 'tokens' && <TokensView />}
        {route.name === 'documents' && <DocumentsView key={switches} collection={collection} authOff={session.auth === 'off'} />}
        {route.name === 'history' && <HistoryView historyId={route.historyId} collections={collections} />}
      </main>
    </div>
  );
}
