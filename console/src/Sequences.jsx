import { useEffect, useRef, useState } from 'react';
import { InFlightChoice, defaultInFlight, statusChange } from './InFlight.jsx';
import { get, missing, patch, post, call, can, Problem } from './api.js';
import { NODE_TYPES } from './nodeTypes.js';
import { go, routeOf } from './route.js';
import { ago } from './time.js';
import Menu from './Menu.jsx';
import Confirm from './Confirm.jsx';

/** Sequences and automations: find, create, rename, duplicate, archive, delete, pause, activate. */
const PAGE = 25;
const STATUS_FILTERS = ['all', 'draft', 'active', 'paused', 'archived'];
const KIND_FILTERS = ['all', 'automation', 'sequence'];
/** How long the search waits after the last key before it asks. */
const SEARCH_DELAY_MS = 250;

/** The list's filters as the address holds them. */
function filtersOf(params) {
  const pick = (name, allowed) => (allowed.includes(params.get(name)) ? params.get(name) : 'all');
  return {
    status: pick('status', STATUS_FILTERS),
    kind: pick('kind', KIND_FILTERS),
    q: params.get('q') || '',
    offset: Math.max(0, Number.parseInt(params.get('from') || '0', 10) || 0),
  };
}

function address(filters) {
  return routeOf('/sequences', {
    status: filters.status === 'all' ? null : filters.status,
    kind: filters.kind === 'all' ? null : filters.kind,
    q: filters.q.trim() || null,
    from: filters.offset || null,
  });
}

/** A trigger type by its palette name ("Webhook trigger"), or "—" for none. */
function triggerName(type) {
  if (!type) return '—';
  return NODE_TYPES[type]?.label || type.replace(/_/g, ' ');
}

/** Every sequence and automation, filtered by status, kind and name, a page at a time. */
export default function Sequences({ me, params }) {
  const filters = filtersOf(params || new URLSearchParams());
  const [flows, setFlows] = useState(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState(null);
  const [notice, setNotice] = useState(null);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState(null);
  const [asking, setAsking] = useState(null);
  const [search, setSearch] = useState(filters.q);
  const [loading, setLoading] = useState(true);
  const cannotWrite = missing(me, 'sequences:write');
  const key = address(filters);

  const setFilters = (change, options) => go(address({ ...filters, offset: 0, ...change }), options);

  async function load() {
    setLoading(true);
    try {
      const q = filters.q.trim() ? `&q=${encodeURIComponent(filters.q.trim())}` : '';
      const answer = await get(
        `/api/v1/sequences?status=${filters.status}&flow_type=${filters.kind}&limit=${PAGE}&offset=${filters.offset}${q}`,
      );
      setFlows(answer.sequences);
      setTotal(answer.total);
      setError(null);
    } catch (e) {
      setError(e.message);
    } finally {
      setLoading(false);
    }
  }
  useEffect(() => {
    load();
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps

  // the search box follows the address (back and forward), and the address the box once typing pauses
  useEffect(() => setSearch(filters.q), [filters.q]);
  useEffect(() => {
    if (search === filters.q) return undefined;
    const timer = setTimeout(() => setFilters({ q: search }, { replace: true }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]); // eslint-disable-line react-hooks/exhaustive-deps

  /** Runs a change of the list, then shows the list again; a refusal is said. */
  async function act(action, done) {
    setError(null);
    setNotice(null);
    try {
      const result = await action();
      await load();
      if (done) setNotice(done(result));
    } catch (e) {
      if (e instanceof Problem && e.status === 422 && e.errors.length) {
        // the editor marks each problem on the node it names
        sessionStorage.setItem(`problems.${action.flowId}`, '1');
        window.location.hash = `#/sequences/${action.flowId}/canvas`;
      } else {
        setError(e.message);
      }
    }
  }

  const setStatus = (flow, status, inFlight) => {
    const action = () => patch(`/api/v1/sequences/${flow.id}`, statusChange(status, inFlight));
    action.flowId = flow.id;
    return act(action);
  };

  async function create(name, flowType) {
    setError(null);
    try {
      const answer = await post('/api/v1/sequences', { name, flow_type: flowType, builder_mode: 'visual' });
      return answer.sequence;
    } catch (e) {
      setError(e.message);
      return null;
    }
  }

  /** A new automation whose canvas opens on the prompt of Generate. */
  async function generateNew() {
    const flow = await create('Generated flow', 'automation');
    if (flow) window.location.hash = `#/sequences/${flow.id}/canvas?generate`;
  }

  const duplicate = (flow) =>
    act(
      () => post(`/api/v1/sequences/${flow.id}/duplicate`, {}),
      (answer) => ({ text: `Duplicated as “${answer.sequence.name}”, a draft.`, id: answer.sequence.id }),
    );

  /** Asks before pausing, archiving or deleting, saying what becomes of the runs. */
  async function ask(kind, flow) {
    setError(null);
    let runs = { total: 0, running: 0 };
    if (can(me, 'automation_runs:read')) {
      try {
        const [all, running] = await Promise.all([
          get(`/api/v1/automation-runs?sequence_id=${flow.id}&limit=1`),
          get(`/api/v1/automation-runs?sequence_id=${flow.id}&status=running&limit=1`),
        ]);
        runs = { total: all.total, running: running.total };
      } catch {
        runs = null;
      }
    } else {
      runs = null;
    }
    setAsking({ kind, flow, runs });
  }

  const empty = flows !== null && flows.length === 0;
  const filtered = filters.status !== 'all' || filters.kind !== 'all' || filters.q.trim();

  return (
    <main className="page" data-ready={!loading} aria-busy={loading}>
      <div className="page-head">
        <h1>Sequences and automations</h1>
        <button type="button" onClick={() => setCreating(true)} disabled={!!cannotWrite} title={cannotWrite}>
          New flow
        </button>
        <button type="button" onClick={generateNew} disabled={!!cannotWrite} title={cannotWrite || 'Describe a flow and let it be drafted'}>
          Generate
        </button>
      </div>
      {creating && (
        <NewFlow
          onCancel={() => setCreating(false)}
          onCreate={async (name, flowType) => {
            const flow = await create(name, flowType);
            if (flow) window.location.hash = `#/sequences/${flow.id}/canvas`;
          }}
        />
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {notice && (
        <p role="status" className="message">
          {notice.text} <a href={`#/sequences/${notice.id}/canvas`}>Open it</a>
        </p>
      )}
      <div className="row filters" role="search" aria-label="Find flows">
        <label htmlFor="search">Name</label>
        <input
          id="search"
          type="search"
          className="search"
          placeholder="Search by name"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <label htmlFor="filter-status">Status</label>
        <select id="filter-status" value={filters.status} onChange={(e) => setFilters({ status: e.target.value })}>
          {STATUS_FILTERS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <label htmlFor="filter-kind">Kind</label>
        <select id="filter-kind" value={filters.kind} onChange={(e) => setFilters({ kind: e.target.value })}>
          {KIND_FILTERS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <span className="paging" aria-live="polite">
          {total === 0 ? 'none' : `${filters.offset + 1}–${Math.min(filters.offset + PAGE, total)} of ${total}`}
        </span>
        <button
          type="button"
          disabled={filters.offset === 0}
          onClick={() => setFilters({ offset: Math.max(0, filters.offset - PAGE) })}
        >
          Previous
        </button>
        <button
          type="button"
          disabled={filters.offset + PAGE >= total}
          onClick={() => setFilters({ offset: filters.offset + PAGE })}
        >
          Next
        </button>
      </div>
      {flows === null ? (
        <p>Loading…</p>
      ) : empty ? (
        <div className="empty">
          {filtered ? (
            <>
              <p>No flows match these filters.</p>
              <button type="button" onClick={() => go('#/sequences')}>
                Clear the filters
              </button>
            </>
          ) : (
            <>
              <h2>No flows yet</h2>
              <p>Draw a flow on the canvas, or describe it in a sentence and let it be drafted.</p>
              <div className="row">
                <button type="button" onClick={() => setCreating(true)} disabled={!!cannotWrite} title={cannotWrite}>
                  New flow
                </button>
                <button type="button" onClick={generateNew} disabled={!!cannotWrite} title={cannotWrite}>
                  Generate
                </button>
              </div>
            </>
          )}
        </div>
      ) : (
        <div className="table-wrap">
          <table className="flows">
            <thead>
              <tr>
                <th>Name</th>
                <th>Kind</th>
                <th>Trigger</th>
                <th>Status</th>
                <th>Last run</th>
                <th>Version</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {flows.map((flow) => (
                <tr key={flow.id} data-flow={flow.name}>
                  <td className="flow-cell">
                    {renaming === flow.id ? (
                      <Rename
                        flow={flow}
                        onDone={async (name) => {
                          setRenaming(null);
                          if (name && name !== flow.name) await act(() => patch(`/api/v1/sequences/${flow.id}`, { name }));
                        }}
                      />
                    ) : (
                      <a href={`#/sequences/${flow.id}/canvas`} title={flow.name}>
                        {flow.name}
                      </a>
                    )}
                  </td>
                  <td>{flow.flow_type}</td>
                  <td>{triggerName(flow.trigger_type)}</td>
                  <td className={`status ${flow.status}`}>{flow.status}</td>
                  <td className="last-run">
                    {flow.last_run_at ? (
                      <a href={`#/sequences/${flow.id}/runs`} title={new Date(flow.last_run_at).toLocaleString()}>
                        {ago(flow.last_run_at)} · <span className={`status ${flow.last_run_status}`}>{flow.last_run_status}</span>
                      </a>
                    ) : (
                      'never'
                    )}
                  </td>
                  <td>{flow.current_version}</td>
                  <td className="actions">
                    {flow.status === 'active' ? (
                      <button type="button" disabled={!!cannotWrite} title={cannotWrite} onClick={() => ask('pause', flow)}>
                        Pause
                      </button>
                    ) : (
                      <button
                        type="button"
                        disabled={!!cannotWrite}
                        title={cannotWrite}
                        onClick={() => setStatus(flow, 'active')}
                      >
                        Activate
                      </button>
                    )}
                    <a href={`#/sequences/${flow.id}/runs`}>{flow.flow_type === 'automation' ? 'Runs' : 'Enrollments'}</a>
                    <Menu
                      label={`More actions for ${flow.name}`}
                      buttonText="⋯"
                      buttonClass="more"
                      disabled={!!cannotWrite}
                      title={cannotWrite || 'Rename, duplicate, archive or delete'}
                      items={[
                        { key: 'rename', label: 'Rename', onSelect: () => setRenaming(flow.id) },
                        { key: 'duplicate', label: 'Duplicate', onSelect: () => duplicate(flow) },
                        {
                          key: 'archive',
                          label: 'Archive',
                          disabled: flow.status === 'archived',
                          onSelect: () => ask('archive', flow),
                        },
                        { key: 'delete', label: 'Delete…', onSelect: () => ask('delete', flow) },
                      ]}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {asking && (
        <Ask
          {...asking}
          onCancel={() => setAsking(null)}
          onStatus={(status, inFlight) => {
            setAsking(null);
            setStatus(asking.flow, status, inFlight);
          }}
          onDelete={() => {
            setAsking(null);
            act(() => call('DELETE', `/api/v1/sequences/${asking.flow.id}`));
          }}
        />
      )}
    </main>
  );
}

/** What becomes of a flow's runs, in words, from how many it has and how many are going on. */
export function runsInWords(runs) {
  if (!runs) return 'Its runs could not be counted with this key.';
  if (!runs.total) return 'It has never run.';
  const all = `${runs.total} run${runs.total === 1 ? '' : 's'}`;
  return runs.running ? `It has ${all}, ${runs.running} of them in progress.` : `It has ${all}, none in progress.`;
}

/** The question before pausing, archiving or deleting a flow, with what becomes of its runs. */
function Ask({ kind, flow, runs, onCancel, onStatus, onDelete }) {
  // a delete that cannot be offers an archive: its runs in progress are asked about as an archive's
  const [inFlight, setInFlight] = useState(defaultInFlight(kind === 'pause' ? 'pause' : 'archive'));
  const running = runs ? runs.running : null;
  if (kind === 'pause') {
    return (
      <Confirm title={`Pause “${flow.name}”?`} confirm="Pause" onCancel={onCancel} onConfirm={() => onStatus('paused', inFlight)}>
        <p>
          {runsInWords(runs)} While it is paused it starts no new runs: its triggers start nothing and its schedules
          stop.
        </p>
        <InFlightChoice kind="pause" running={running} value={inFlight} onChange={setInFlight} />
      </Confirm>
    );
  }
  if (kind === 'archive') {
    return (
      <Confirm title={`Archive “${flow.name}”?`} confirm="Archive" onCancel={onCancel} onConfirm={() => onStatus('archived', inFlight)}>
        <p>
          {runsInWords(runs)} Archived, it starts no new runs and leaves the default list; its runs and versions stay
          readable.
        </p>
        <InFlightChoice kind="archive" running={running} value={inFlight} onChange={setInFlight} />
      </Confirm>
    );
  }
  const kept = flow.status === 'active' || !runs || runs.total > 0;
  if (kept) {
    const why =
      flow.status === 'active'
        ? 'It is active: pause or archive it first.'
        : runs
          ? 'A flow that has run keeps its runs, so it is archived rather than deleted.'
          : 'Whether it has run cannot be told with this key.';
    return (
      <Confirm
        title={`“${flow.name}” cannot be deleted`}
        confirm="Archive instead"
        danger={false}
        onCancel={onCancel}
        onConfirm={() => onStatus('archived', inFlight)}
      >
        <p>
          {runsInWords(runs)} {why} Archived, it starts no new runs and its history stays readable.
        </p>
        <InFlightChoice kind="archive" running={running} value={inFlight} onChange={setInFlight} />
      </Confirm>
    );
  }
  return (
    <Confirm title={`Delete “${flow.name}”?`} confirm="Delete" onCancel={onCancel} onConfirm={onDelete}>
      <p>
        It has never run, so no run is lost. Its {flow.current_version} version{flow.current_version === 1 ? '' : 's'}{' '}
        go with it; this cannot be undone.
      </p>
    </Confirm>
  );
}

/** The name as a field: Enter or leaving it keeps the new name, Escape the old one. */
function Rename({ flow, onDone }) {
  const [name, setName] = useState(flow.name);
  const field = useRef(null);
  const done = useRef(false);
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);
  const finish = (value) => {
    if (done.current) return;
    done.current = true;
    onDone(value);
  };
  return (
    <input
      ref={field}
      className="rename"
      aria-label={`New name of ${flow.name}`}
      value={name}
      maxLength={200}
      onChange={(e) => setName(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') finish(name.trim());
        if (e.key === 'Escape') finish(null);
      }}
      onBlur={() => finish(name.trim())}
    />
  );
}

/** A new flow's name and kind. */
function NewFlow({ onCreate, onCancel }) {
  const [name, setName] = useState('');
  const [flowType, setFlowType] = useState('automation');
  const field = useRef(null);
  useEffect(() => field.current?.focus(), []);
  return (
    <form
      className="row new-flow"
      aria-label="New flow"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) onCreate(name.trim(), flowType);
      }}
    >
      <label htmlFor="new-name">Name</label>
      <input id="new-name" ref={field} value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
      <label htmlFor="new-type">Kind</label>
      <select id="new-type" value={flowType} onChange={(e) => setFlowType(e.target.value)}>
        <option value="automation">automation</option>
        <option value="sequence">sequence</option>
      </select>
      <button type="submit" disabled={!name.trim()}>
        Create
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
