import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { apiKey, get, signIn, signOut, Problem } from './api.js';
import Sequences from './Sequences.jsx';
import Editor from './Editor.jsx';
import Runs from './Runs.jsx';
import { mayLeave, setUnsaved } from './unsaved.js';
import { loadNodeTypes } from './nodeTypes.js';
import { parseRoute } from './route.js';
import './console.css';

/** #/sequences[?filters], #/sequences/<id>/canvas[?generate], #/sequences/<id>/runs[/<runId>][?filters] */
function useRoute() {
  const [hash, setHash] = useState(window.location.hash || '#/sequences');
  useEffect(() => {
    let current = window.location.hash || '#/sequences';
    const changed = () => {
      const next = window.location.hash || '#/sequences';
      if (next === current) return;
      if (!mayLeave()) {
        // stays on the page with its edits; the address goes back to it without a new entry
        window.history.replaceState(null, '', current);
        return;
      }
      setUnsaved(false);
      current = next;
      setHash(next);
    };
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return parseRoute(hash);
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
  // the palette and the config forms come from the API's node types
  const [types, setTypes] = useState({ loaded: false, error: null });
  const route = useRoute();
  useEffect(() => {
    if (!me || types.loaded) return;
    loadNodeTypes()
      .then(() => setTypes({ loaded: true, error: null }))
      .catch((e) => setTypes({ loaded: false, error: e.message }));
  }, [me, types.loaded]);
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
  const [page, id, sub, runId] = route.parts;
  let body;
  const flowPage = page === 'sequences' && id && (sub === 'canvas' || sub === 'runs');
  if (flowPage && types.error)
    body = (
      <p role="alert" className="error">
        The node types could not be read: {types.error}
      </p>
    );
  else if (flowPage && !types.loaded) body = <p role="status">Loading the node types…</p>;
  else if (page === 'sequences' && id && sub === 'canvas')
    body = <Editor key={id} me={me} sequenceId={id} generate={route.params.has('generate')} />;
  else if (page === 'sequences' && id && sub === 'runs')
    body = <Runs key={id} me={me} sequenceId={id} runId={runId} params={route.params} />;
  else body = <Sequences me={me} params={route.params} />;
  return (
    <>
      <header className="top">
        <a href="#/sequences" className="brand">
          CRM automation console
        </a>
        <span className="who" title={me.scopes.join(', ')}>
          tenant {me.tenant_id.slice(0, 8)} ·{' '}
          {me.scopes.includes('*')
            ? 'all scopes'
            : `${me.scopes.length} scope${me.scopes.length === 1 ? '' : 's'}`}
        </span>
        <button
          type="button"
          onClick={() => {
            if (!mayLeave()) return;
            setUnsaved(false);
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
