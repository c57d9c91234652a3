import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { apiKey, get, signIn, signOut, Problem } from './api.js';
import Sequences from './Sequences.jsx';
import Editor from './Editor.jsx';
import Runs from './Runs.jsx';
import './console.css';

/** #/sequences, #/sequences/<id>/canvas, #/sequences/<id>/runs[/<runId>] */
function useRoute() {
  const [hash, setHash] = useState(window.location.hash || '#/sequences');
  useEffect(() => {
    const changed = () => setHash(window.location.hash || '#/sequences');
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return hash.slice(1).split('/').filter(Boolean);
}

function SignIn({ onSignedIn }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState(null);
  async function submit(event) {
    event.preventDefault();
    signIn(key);
    try {
      onSignedIn(await get('/api/v1/me'));
    } catch (e) {
      signOut();
      setError(e instanceof Problem && e.status === 401 ? 'This key is not valid.' : e.message);
    }
  }
  return (
    <main className="signin">
      <h1>CRM automation console</h1>
      <form onSubmit={submit}>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          placeholder="crm_..."
        />
        <button type="submit" disabled={!key.trim()}>
          Sign in
        </button>
        <p className="hint">The key stays in this tab (sessionStorage) and goes only to this API.</p>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}

function App() {
  const [me, setMe] = useState(null);
  const [checked, setChecked] = useState(!apiKey());
  const route = useRoute();
  useEffect(() => {
    if (apiKey()) {
      get('/api/v1/me')
        .then(setMe)
        .catch(() => signOut())
        .finally(() => setChecked(true));
    }
  }, []);
  if (!checked) return null;
  if (!me) return <SignIn onSignedIn={setMe} />;
  const [page, id, sub, runId] = route;
  let body;
  if (page === 'sequences' && id && sub === 'canvas') body = <Editor me={me} sequenceId={id} />;
  else if (page === 'sequences' && id && sub === 'runs')
    body = <Runs me={me} sequenceId={id} runId={runId} />;
  else body = <Sequences me={me} />;
  return (
    <>
      <header className="top">
        <a href="#/sequences" className="brand">
          CRM automation console
        </a>
        <span className="who" title={me.scopes.join(', ')}>
          tenant {me.tenant_id.slice(0, 8)} · {me.scopes.length} scopes
        </span>
        <button
          type="button"
          onClick={() => {
            signOut();
            setMe(null);
          }}
        >
          Sign out
        </button>
      </header>
      {body}
    </>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
