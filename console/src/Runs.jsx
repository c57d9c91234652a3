import { useEffect, useMemo, useRef, useState } from 'react';
import { ReactFlow, Background, Controls } from '@xyflow/react';
import { can, get, missing, post } from './api.js';
import { ARIA_LABELS, nodeTypes, toFlow } from './Editor.jsx';
import { NODE_TYPES, nodeName } from './nodeTypes.js';
import { go, routeOf } from './route.js';
import { duration } from './time.js';
import Confirm from './Confirm.jsx';

/** The run list's choice of the runs that ended at their flow's goal (exit=goal). */
const GOAL = 'goal';
const STATUSES = ['', 'running', 'completed', 'failed', 'cancelled', GOAL];

/** The runs of an automation (or the enrollments of a sequence), and one run drawn on its canvas. */
export default function Runs({ me, sequenceId, runId, params }) {
  const [sequence, setSequence] = useState(null);
  useEffect(() => {
    get(`/api/v1/sequences/${sequenceId}`).then((s) => setSequence(s.sequence));
  }, [sequenceId]);
  if (!sequence)
    return (
      <main className="page" data-ready="false" aria-busy="true">
        Loading…
      </main>
    );
  if (runId) return <RunView key={runId} me={me} sequence={sequence} runId={runId} />;
  return sequence.flow_type === 'sequence' ? (
    <Enrollments me={me} sequence={sequence} />
  ) : (
    <RunList me={me} sequence={sequence} params={params || new URLSearchParams()} />
  );
}

/** The id of the contact a trigger payload names: contact_id, or a CRM event's data.contact_id. */
export function contactIdOf(payload) {
  if (!payload || typeof payload !== 'object') return null;
  const id = payload.contact_id || payload.data?.contact_id;
  return typeof id === 'string' ? id : null;
}

/**
 * The names of the contacts these ids name, read once each (GET /api/v1/contacts/:id) and kept:
 * {id: name or email}. A key without contacts:read gets none.
 */
export function useContactNames(me, ids) {
  const [names, setNames] = useState({});
  const asked = useRef(new Set());
  const key = [...new Set(ids.filter(Boolean))].sort().join(',');
  useEffect(() => {
    if (!can(me, 'contacts:read')) return undefined;
    let live = true;
    for (const id of key ? key.split(',') : []) {
      if (asked.current.has(id)) continue;
      asked.current.add(id);
      get(`/api/v1/contacts/${id}`)
        .then((a) => {
          const c = a.contact;
          const name = [c.first_name, c.last_name].filter(Boolean).join(' ');
          if (live) setNames((n) => ({ ...n, [id]: { name: name || c.email || id, email: c.email } }));
        })
        .catch(() => live && setNames((n) => ({ ...n, [id]: { name: null } })));
    }
    return () => {
      live = false;
    };
  }, [me, key]);
  return names;
}

/** The outcomes a run took: "“Is it pro?” true", from the nodes it reached and its canvas. */
export function branchesTaken(canvas, reached) {
  if (!canvas || !reached) return [];
  const at = new Set(reached);
  return canvas.edges
    .filter((e) => e.label && at.has(e.source) && at.has(e.target))
    .map((e) => {
      const source = canvas.nodes.find((n) => n.id === e.source);
      return `${source?.data?.label || source?.type} → ${e.label}`;
    });
}

const canvasVersions = new Map();

/** Each canvas version a list of runs ran on, read once: {version: canvas}. */
function useCanvasVersions(sequenceId, versions) {
  const [canvases, setCanvases] = useState({});
  const key = [...new Set(versions)].sort().join(',');
  useEffect(() => {
    let live = true;
    for (const v of key ? key.split(',') : []) {
      const id = `${sequenceId}/${v}`;
      if (!canvasVersions.has(id)) canvasVersions.set(id, get(`/api/sequences/${sequenceId}/versions/${v}`).then((a) => a.canvas));
      canvasVersions
        .get(id)
        .then((c) => live && setCanvases((all) => (all[v] ? all : { ...all, [v]: c })))
        .catch(() => canvasVersions.delete(id));
    }
    return () => {
      live = false;
    };
  }, [sequenceId, key]);
  return canvases;
}

function RunList({ me, sequence, params }) {
  const status = STATUSES.includes(params.get('status')) ? params.get('status') : '';
  const setStatus = (s) => go(routeOf(`/sequences/${sequence.id}/runs`, { status: s || null }));
  const [runs, setRuns] = useState(null);
  const [error, setError] = useState(null);
  const names = useContactNames(me, (runs || []).map((r) => contactIdOf(r.trigger_payload)));
  const canvases = useCanvasVersions(sequence.id, (runs || []).map((r) => r.canvas_version));
  useEffect(() => {
    let live = true;
    const load = () =>
      get(
        `/api/v1/automation-runs?sequence_id=${sequence.id}&limit=100${
          status === GOAL ? '&exit=goal' : status ? `&status=${status}` : ''
        }`,
      )
        .then(
          (answer) =>
            live && setRuns(answer.runs.map((r) => ({ ...r, nodes_reached: answer.nodes_reached?.[r.id] }))),
        )
        .catch((e) => live && setError(e.message));
    load();
    const timer = setInterval(load, 2000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [sequence.id, status]);
  return (
    <main className="page" data-ready={runs !== null} aria-busy={runs === null}>
      <h1>Runs of {sequence.name}</h1>
      <p>
        <a href={`#/sequences/${sequence.id}/canvas`}>Back to the canvas</a>
      </p>
      <div className="row">
        <label htmlFor="run-status">Status</label>
        <select id="run-status" value={status} onChange={(e) => setStatus(e.target.value)}>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s === GOAL ? 'met the goal' : s || 'all'}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {runs && runs.length === 0 && <p>No runs{status ? ` ${status}` : ''} yet.</p>}
      {runs && runs.length > 0 && (
        <div className="table-wrap">
          <table className="runs">
            <thead>
              <tr>
                <th>Run</th>
                <th>Status</th>
                <th>Contact</th>
                <th>Branch</th>
                <th>Trigger payload</th>
                <th>Version</th>
                <th>Started</th>
                <th>Duration</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => {
                const contactId = contactIdOf(run.trigger_payload);
                const contact = contactId && names[contactId];
                const taken = branchesTaken(canvases[run.canvas_version], run.nodes_reached);
                const end = run.completed_at ? new Date(run.completed_at) : run.status === 'running' ? new Date() : null;
                return (
                  <tr key={run.id}>
                    <td>
                      <a href={`#/sequences/${sequence.id}/runs/${run.id}`}>{run.id.slice(0, 8)}</a>
                      {run.retry_of && ' (retry)'}
                    </td>
                    <td className={`status ${run.status}`}>{run.status}</td>
                    <td className="run-contact" title={contact?.email || contactId || undefined}>
                      {contact?.name || contactOf(run.trigger_payload) || '—'}
                    </td>
                    <td className="run-branch">{taken.join(', ') || '—'}</td>
                    <td className="run-payload">
                      <code title={JSON.stringify(run.trigger_payload, null, 2)}>{payloadLine(run.trigger_payload)}</code>
                    </td>
                    <td>{run.canvas_version}</td>
                    <td className="run-started" title={run.started_at}>
                      {run.started_at && new Date(run.started_at).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' })}
                    </td>
                    <td className="run-duration">
                      {end && run.started_at ? duration(end - new Date(run.started_at)) : ''}
                      {run.status === 'running' ? ' so far' : ''}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}

/** The run's contact as its trigger payload names it: contact_id, else email. */
function contactOf(payload) {
  if (!payload || typeof payload !== 'object') return null;
  return payload.contact_id || payload.email || payload.contact?.email || null;
}

function payloadLine(payload) {
  const text = JSON.stringify(payload ?? {});
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function Enrollments({ me, sequence }) {
  const [enrollments, setEnrollments] = useState(null);
  const names = useContactNames(me, (enrollments || []).map((e) => e.contact_id));
  useEffect(() => {
    get(`/api/v1/sequences/${sequence.id}/enrollments?limit=100`).then((a) => setEnrollments(a.enrollments));
  }, [sequence.id]);
  return (
    <main className="page" data-ready={enrollments !== null} aria-busy={enrollments === null}>
      <h1>Enrollments of {sequence.name}</h1>
      <p>
        <a href={`#/sequences/${sequence.id}/canvas`}>Back to the canvas</a>
      </p>
      {enrollments && (
        <table>
          <thead>
            <tr>
              <th>Contact</th>
              <th>Status</th>
              <th>Current step</th>
              <th>Next step at</th>
            </tr>
          </thead>
          <tbody>
            {enrollments.map((e) => (
              <tr key={e.id}>
                <td title={e.contact_id}>{names[e.contact_id]?.name || e.contact_id}</td>
                <td className={`status ${e.status}`}>{e.status}</td>
                <td>
                  {e.current_step ? (
                    <a href={`#/sequences/${sequence.id}/runs/${e.run_id}`}>
                      {e.current_step.node_id} ({e.current_step.status})
                    </a>
                  ) : (
                    '—'
                  )}
                </td>
                <td>{e.next_step_at && new Date(e.next_step_at).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

/**
 * What a node the run ended without reaching is said to be: on a completed run, a branch not
 * taken; on a cancelled or failed one, a node the run stopped before.
 */
export function notReached(status) {
  if (status === 'cancelled')
    return { card: 'not reached: the run was cancelled', panel: 'not reached: the run was cancelled before it' };
  if (status === 'failed')
    return { card: 'not reached: the run failed', panel: 'not reached: the run failed before it' };
  return { card: 'skipped: branch not taken', panel: 'skipped: the run did not take this branch' };
}

/**
 * An error in the designer's words: nodes named by their labels, not their ids ("node
 * crm-update-1 (crm_update) failed" → "“Update stage” failed").
 */
export function inWords(error, nodes) {
  if (!error || !nodes?.length) return error;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ids = [...byId.keys()].sort((a, b) => b.length - a.length).map(escape).join('|');
  // one pass, so that a label put in is never read again as an id
  const named = new RegExp(`\\bnode (${ids}) \\([a-z_]+\\)|(?<![\\w-])(${ids})(?![\\w-])`, 'g');
  return error.replace(named, (_, withType, bare) => {
    const n = byId.get(withType || bare);
    return `“${n.data?.label || NODE_TYPES[n.type]?.label || n.type}”`;
  });
}

function RunView({ me, sequence, runId }) {
  const [run, setRun] = useState(null);
  const [canvas, setCanvas] = useState(null);
  const [picked, setPicked] = useState(null);
  const [message, setMessage] = useState(null);
  const [asking, setAsking] = useState(null);
  const cannotWrite = missing(me, 'automation_runs:write');

  useEffect(() => {
    let live = true;
    let timer;
    const load = async () => {
      try {
        const answer = await get(`/api/v1/automation-runs/${runId}`);
        if (!live) return;
        setRun(answer.run);
        // updates live while the run goes on
        if (answer.run.status === 'running') timer = setTimeout(load, 1000);
      } catch (e) {
        if (live) setMessage(e.message);
      }
    };
    load();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [runId]);

  useEffect(() => {
    if (run && (!canvas || canvas.version !== run.canvas_version)) {
      get(`/api/sequences/${sequence.id}/versions/${run.canvas_version}`).then((a) => setCanvas(a.canvas));
    }
  }, [run, canvas, sequence.id]);

  /** The latest log entry of each node. */
  const byNode = useMemo(() => {
    const out = {};
    for (const entry of run?.node_log || []) out[entry.nodeId] = entry;
    return out;
  }, [run]);

  const ended = run && run.status !== 'running';

  /** A node's state: its log entry's, or skipped when the run ended without reaching it. */
  const stateOf = (id) => byNode[id]?.status || (ended ? 'skipped' : undefined);
  const unreached = notReached(run?.status);

  const flow = useMemo(() => {
    if (!canvas) return { nodes: [], edges: [] };
    const converted = toFlow(canvas);
    return {
      nodes: converted.nodes.map((n) => {
        const status = stateOf(n.id);
        return {
          ...n,
          draggable: false,
          connectable: false,
          data: {
            ...n.data,
            status,
            statusText: status === 'skipped' && !byNode[n.id] ? unreached.card : status,
          },
        };
      }),
      // an edge is taken when both ends ran; once the run ended, the others were skipped
      edges: converted.edges.map((e) => {
        const from = stateOf(e.source);
        const to = stateOf(e.target);
        const taken = from && from !== 'skipped' && to && to !== 'skipped';
        const skipped = !taken && (to === 'skipped' || from === 'skipped');
        return {
          ...e,
          className: taken ? 'taken' : skipped ? 'skipped' : undefined,
          animated: !ended && from === 'completed' && !to,
        };
      }),
    };
  }, [canvas, byNode, ended, unreached.card]); // eslint-disable-line react-hooks/exhaustive-deps

  /**
   * A node's input: as logged when it ran (its settings filled in, secrets masked, and what it read);
   * a trigger's is the payload. For a node without a logged input, its settings and what it could
   * read: the trigger payload and the outputs of the nodes before it.
   */
  const inputOf = (nodeId) => {
    const logged = byNode[nodeId];
    if (logged?.input) {
      // the settings first, then what the node read (the stored JSON keeps no key order)
      const { config, read, ...rest } = logged.input;
      return { logged: true, input: config ? { config, read, ...rest } : logged.input };
    }
    if (!canvas) return { logged: false, input: null };
    const pickedType = canvas.nodes.find((n) => n.id === nodeId)?.type;
    if (NODE_TYPES[pickedType]?.trigger) return { logged: true, input: run.trigger_payload };
    const before = new Set();
    const todo = [nodeId];
    while (todo.length) {
      const id = todo.pop();
      for (const e of canvas.edges) {
        if (e.target === id && !before.has(e.source)) {
          before.add(e.source);
          todo.push(e.source);
        }
      }
    }
    const reads = { trigger: run.trigger_payload };
    const counts = {};
    for (const entry of run.node_log || []) {
      if (!before.has(entry.nodeId) || NODE_TYPES[entry.nodeType]?.trigger) continue;
      counts[entry.nodeType] = (counts[entry.nodeType] || 0) + 1;
      reads[`${entry.nodeType}_${counts[entry.nodeType]}`] = entry.output;
    }
    const node = canvas.nodes.find((n) => n.id === nodeId);
    return { logged: false, input: { settings: node?.data?.config || {}, reads } };
  };

  async function act(path, then) {
    setMessage(null);
    try {
      const answer = await post(path);
      then(answer);
    } catch (e) {
      setMessage(e.message);
    }
  }

  if (!run)
    return (
      <main className="page" data-ready="false" aria-busy="true">
        {message || 'Loading…'}
      </main>
    );
  const pickedNode = picked && canvas?.nodes.find((n) => n.id === picked);
  const entry = picked && byNode[picked];
  const pickedInput = picked ? inputOf(picked) : null;
  const temporal =
    me.temporal_ui_url &&
    `${me.temporal_ui_url}/namespaces/${encodeURIComponent(me.temporal_namespace)}/workflows/${encodeURIComponent(run.workflow_id)}`;
  const trace =
    me.trace_ui_url && run.trace_id && me.trace_ui_url.replaceAll('{trace_id}', run.trace_id);
  return (
    <main className="run" data-ready={!!canvas} aria-busy={!canvas}>
      <section className="canvas-area">
        <div className="toolbar">
          <a href={`#/sequences/${sequence.id}/runs`}>All runs</a>
          <strong>Run {run.id.slice(0, 8)}</strong>
          <span className={`status ${run.status}`} data-run-status={run.status}>
            {run.status}
          </span>
          <span>version {run.canvas_version}</span>
          {run.test && (
            <span className="test-run-label" role="note">
              Test run: nothing was sent
            </span>
          )}
          {run.status === 'running' && (
            <button
              type="button"
              disabled={!!cannotWrite}
              title={cannotWrite}
              onClick={() =>
                setAsking({
                  title: `Cancel run ${run.id.slice(0, 8)}?`,
                  confirm: 'Cancel the run',
                  body: 'It stops where it is: the nodes it has not reached do not run, and a node in flight is stopped. What it has done stays done. It cannot be resumed, only run again.',
                  action: () => act(`/api/v1/automation-runs/${run.id}/cancel`, (a) => setRun(a.run)),
                })
              }
            >
              Cancel
            </button>
          )}
          {run.status === 'failed' && (
            <button
              type="button"
              disabled={!!cannotWrite}
              title={cannotWrite || 'Runs again from the failed node, keeping what completed'}
              onClick={() =>
                setAsking({
                  title: `Retry run ${run.id.slice(0, 8)} from its failed node?`,
                  confirm: 'Retry',
                  body: 'A new run starts on the same version and payload, from the failed node (and any other node it left unrun). What completed is kept and not done again; the failed node, and what follows it, run now, with what the flow does today: its emails, calls and CRM changes.',
                  action: () =>
                    act(`/api/v1/automation-runs/${run.id}/retry`, (a) => {
                      window.location.hash = `#/sequences/${sequence.id}/runs/${a.run.id}`;
                    }),
                })
              }
            >
              Retry from the failed node
            </button>
          )}
          {temporal && (
            <a href={temporal} target="_blank" rel="noreferrer">
              Open in the Temporal UI
            </a>
          )}
          {trace && (
            <a href={trace} target="_blank" rel="noreferrer">
              Open the trace
            </a>
          )}
        </div>
        {run.exit?.reason === GOAL && (
          <p className="goal-met" role="note">
            Ended at the flow’s goal: its contact met it at “
            {canvas?.nodes.find((n) => n.id === run.exit.at_node)?.data?.label || run.exit.at_node}”.
          </p>
        )}
        {run.error && (
          <p role="alert" className="error run-error">
            {inWords(run.error, canvas?.nodes)}
          </p>
        )}
        {message && (
          <p role="alert" className="error">
            {message}
          </p>
        )}
        <div className="flow">
          <ReactFlow
            nodes={flow.nodes}
            edges={flow.edges}
            nodeTypes={nodeTypes}
            onNodeClick={(_, node) => setPicked(node.id)}
            ariaLabelConfig={ARIA_LABELS}
            nodesDraggable={false}
            nodesConnectable={false}
            fitView
            fitViewOptions={{ maxZoom: 1, padding: 0.2 }}
          >
            <Background />
            <Controls showInteractive={false} />
          </ReactFlow>
        </div>
      </section>
      <aside className="side" aria-label="Node of the run">
        {pickedNode ? (
          <div className="run-node">
            <h2>{pickedNode.data?.label || NODE_TYPES[pickedNode.type]?.label}</h2>
            <p className="hint">
              {NODE_TYPES[pickedNode.type]?.label} · <code>{pickedNode.id}</code>
            </p>
            <p className={`status ${stateOf(picked)}`}>
              {entry ? entry.status : stateOf(picked) === 'skipped' ? unreached.panel : 'not run yet'}
            </p>
            {entry && (
              <p>
                {entry.startedAt && `started ${new Date(entry.startedAt).toLocaleTimeString()}`}
                {entry.completedAt &&
                  ` · took ${Math.max(0, new Date(entry.completedAt) - new Date(entry.startedAt))} ms`}
                {entry.spanId && (
                  <>
                    {' · span '}
                    <code className="node-span">{entry.spanId}</code>
                  </>
                )}
              </p>
            )}
            <h3>Input</h3>
            {!pickedInput.logged && (
              <p className="hint">Not logged for this node: its settings and what it could read.</p>
            )}
            <pre className="node-input" data-logged={pickedInput.logged}>
              {JSON.stringify(pickedInput.input, null, 2)}
            </pre>
            <h3>Output</h3>
            <pre className="node-output">{entry ? JSON.stringify(entry.output, null, 2) : '—'}</pre>
            <h3>Error</h3>
            {entry?.error ? <pre className="error node-error">{inWords(entry.error, canvas?.nodes)}</pre> : <p>none</p>}
            <button type="button" onClick={() => setPicked(null)}>
              Back to the trigger payload
            </button>
          </div>
        ) : (
          <>
            <h2>Trigger payload</h2>
            <pre>{JSON.stringify(run.trigger_payload, null, 2)}</pre>
            <p>Click a node to see its input, output and error.</p>
          </>
        )}
      </aside>
      {asking && (
        <Confirm
          title={asking.title}
          confirm={asking.confirm}
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            setAsking(null);
            asking.action();
          }}
        >
          <p>{asking.body}</p>
        </Confirm>
      )}
    </main>
  );
}
