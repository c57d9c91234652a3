import { useEffect, useRef, useState } from 'react';
import { get, post, Problem } from './api.js';

/** "Ada Lovelace · ada@example.com", or the email alone. */
export function contactLabel(contact) {
  const name = [contact.first_name, contact.last_name].filter(Boolean).join(' ');
  return name ? `${name} · ${contact.email}` : contact.email;
}

/** The sample as the payload box shows it: its contact_id left out (the chosen contact's goes in). */
export function payloadText(sample) {
  if (!sample || typeof sample !== 'object' || Array.isArray(sample)) return '{}';
  const { contact_id: _contact, ...rest } = sample;
  return JSON.stringify(rest, null, 2);
}

/** The payload box read: {payload} or {error}. */
export function readPayload(text) {
  if (!text.trim()) return { payload: {} };
  try {
    const payload = JSON.parse(text);
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return { error: 'The payload must be a JSON object.' };
    return { payload };
  } catch (e) {
    return { error: `The payload is not JSON: ${e.message}` };
  }
}

/**
 * The test run of a flow, or of one node: a contact picked by name or email, the trigger's sample
 * payload (the last run's or test event's), and "only this node" when a node is selected. It starts
 * the run (POST /api/v1/sequences/:id/test-runs) and hands its id on, for the run view.
 */
export default function TestRunDialog({ sequenceId, sample, node, onClose, onStarted }) {
  const [search, setSearch] = useState('');
  const [found, setFound] = useState(null);
  const [contact, setContact] = useState(null);
  const [text, setText] = useState(() => payloadText(sample));
  const [onlyNode, setOnlyNode] = useState(false);
  const [error, setError] = useState(null);
  const [starting, setStarting] = useState(false);
  const searchBox = useRef(null);
  useEffect(() => {
    searchBox.current?.focus();
  }, []);
  useEffect(() => {
    const words = search.trim();
    if (!words) {
      setFound(null);
      return undefined;
    }
    let live = true;
    // asked once typing pauses, not once per letter
    const timer = setTimeout(() => {
      get(`/api/v1/contacts?search=${encodeURIComponent(words)}&limit=10`)
        .then((answer) => live && setFound(answer.contacts || []))
        .catch((e) => live && setError(e.message));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search]);
  const read = readPayload(text);

  async function start(e) {
    e.preventDefault();
    if (!contact || read.error) return;
    setStarting(true);
    setError(null);
    try {
      const body = { contact_id: contact.id, payload: read.payload };
      if (node && onlyNode) body.node_id = node.id;
      const answer = await post(`/api/v1/sequences/${sequenceId}/test-runs`, body);
      onStarted(answer.run_id);
    } catch (problem) {
      const details = problem instanceof Problem ? problem.errors.map((p) => `${p.field}: ${p.message}`) : [];
      setError([problem.message, ...details].join(' '));
      setStarting(false);
    }
  }

  return (
    <div className="modal-backdrop">
      <form
        className="modal test-run"
        role="dialog"
        aria-modal="true"
        aria-labelledby="test-run-title"
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
        onSubmit={start}
      >
        <h2 id="test-run-title">Test run</h2>
        <p className="hint">
          Runs the saved canvas on the engine for one contact. Nothing is sent: emails, calls, chat messages and CRM
          changes show what they would do, and delays do not wait.
        </p>
        <label>
          Contact
          <input
            ref={searchBox}
            type="search"
            value={search}
            placeholder="name or email"
            onChange={(e) => {
              setSearch(e.target.value);
              setContact(null);
            }}
          />
        </label>
        {contact ? (
          <p className="picked" aria-live="polite">
            For {contactLabel(contact)}
          </p>
        ) : (
          found && (
            <ul className="contact-choices" aria-label="Contacts found">
              {found.length === 0 && <li>No contact matches.</li>}
              {found.map((c) => (
                <li key={c.id}>
                  <button type="button" onClick={() => setContact(c)}>
                    {contactLabel(c)}
                  </button>
                </li>
              ))}
            </ul>
          )
        )}
        <label>
          Sample payload (JSON)
          <textarea rows={6} value={text} onChange={(e) => setText(e.target.value)} aria-invalid={!!read.error} />
        </label>
        {read.error && <p className="error">{read.error}</p>}
        {node && (
          <label className="check">
            <input type="checkbox" checked={onlyNode} onChange={(e) => setOnlyNode(e.target.checked)} />
            Only this node: {node.label}
          </label>
        )}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="row">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" disabled={!contact || !!read.error || starting}>
            Start test run
          </button>
        </div>
      </form>
    </div>
  );
}
