import { useEffect, useState } from 'react';
import { get, patch, post, missing, Problem } from './api.js';

/** Sequences and automations: list, create, rename, pause and activate. */
const PAGE = 25;
const STATUS_FILTERS = ['all', 'draft', 'active', 'paused', 'archived'];
const KIND_FILTERS = ['all', 'automation', 'sequence'];

/** Every sequence and automation, filtered by status and kind, a page at a time. */
export default function Sequences({ me }) {
  const [flows, setFlows] = useState(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState(null);
  const [name, setName] = useState('');
  const [flowType, setFlowType] = useState('automation');
  const [status, setStatus] = useState('all');
  const [kind, setKind] = useState('all');
  const [offset, setOffset] = useState(0);
  const [loading, setLoading] = useState(true);
  const cannotWrite = missing(me, 'sequences:write');

  async function load() {
    setLoading(true);
    try {
      const answer = await get(
        `/api/v1/sequences?status=${status}&flow_type=${kind}&limit=${PAGE}&offset=${offset}`,
      );
      setFlows(answer.sequences);
      setTotal(answer.total);
    } catch (e) {
      setError(e.message);
    } finally {
      setLoading(false);
    }
  }
  useEffect(() => {
    load();
  }, [status, kind, offset]);

  async function create(event) {
    event.preventDefault();
    setError(null);
    try {
      const answer = await post('/api/v1/sequences', {
        name: name.trim(),
        flow_type: flowType,
        builder_mode: 'visual',
      });
      window.location.hash = `#/sequences/${answer.sequence.id}/canvas`;
    } catch (e) {
      setError(e.message);
    }
  }

  async function change(flow, body) {
    setError(null);
    try {
      await patch(`/api/v1/sequences/${flow.id}`, body);
      await load();
    } catch (e) {
      if (e instanceof Problem && e.status === 422) {
        // the editor shows each problem on the node it names
        sessionStorage.setItem(`problems.${flow.id}`, JSON.stringify(e.errors));
        window.location.hash = `#/sequences/${flow.id}/canvas`;
      } else {
        setError(e.message);
      }
    }
  }

  return (
    <main className="page" data-ready={!loading} aria-busy={loading}>
      <h1>Sequences and automations</h1>
      <form className="row" onSubmit={create}>
        <label htmlFor="new-name">Name</label>
        <input id="new-name" value={name} onChange={(e) => setName(e.target.value)} />
        <label htmlFor="new-type">Kind</label>
        <select id="new-type" value={flowType} onChange={(e) => setFlowType(e.target.value)}>
          <option value="automation">automation</option>
          <option value="sequence">sequence</option>
        </select>
        <button type="submit" disabled={!!cannotWrite || !name.trim()} title={cannotWrite}>
          Create
        </button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="row filters" role="group" aria-label="Filters">
        <label htmlFor="filter-status">Status</label>
        <select
          id="filter-status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value);
            setOffset(0);
          }}
        >
          {STATUS_FILTERS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <label htmlFor="filter-kind">Kind</label>
        <select
          id="filter-kind"
          value={kind}
          onChange={(e) => {
            setKind(e.target.value);
            setOffset(0);
          }}
        >
          {KIND_FILTERS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <span className="paging" aria-live="polite">
          {total === 0 ? 'none' : `${offset + 1}–${Math.min(offset + PAGE, total)} of ${total}`}
        </span>
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          Previous
        </button>
        <button type="button" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
          Next
        </button>
      </div>
      {flows === null ? (
        <p>Loading…</p>
      ) : flows.length === 0 ? (
        <p>No {status === 'all' ? '' : `${status} `}flows{kind === 'all' ? '' : ` of kind ${kind}`}.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Kind</th>
              <th>Status</th>
              <th>Version</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {flows.map((flow) => (
              <tr key={flow.id} data-flow={flow.name}>
                <td>
                  <a href={`#/sequences/${flow.id}/canvas`}>{flow.name}</a>
                </td>
                <td>{flow.flow_type}</td>
                <td className={`status ${flow.status}`}>{flow.status}</td>
                <td>{flow.current_version}</td>
                <td className="actions">
                  <button
                    type="button"
                    disabled={!!cannotWrite}
                    title={cannotWrite}
                    onClick={() => {
                      const renamed = window.prompt('New name', flow.name);
                      if (renamed && renamed.trim()) change(flow, { name: renamed.trim() });
                    }}
                  >
                    Rename
                  </button>
                  {flow.status === 'active' ? (
                    <button
                      type="button"
                      disabled={!!cannotWrite}
                      title={cannotWrite}
                      onClick={() => change(flow, { status: 'paused' })}
                    >
                      Pause
                    </button>
                  ) : (
                    <button
                      type="button"
                      disabled={!!cannotWrite}
                      title={cannotWrite}
                      onClick={() => change(flow, { status: 'active' })}
                    >
                      Activate
                    </button>
                  )}
                  <a href={`#/sequences/${flow.id}/runs`}>
                    {flow.flow_type === 'automation' ? 'Runs' : 'Enrollments'}
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
