import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import {
  ReactFlow,
  Background,
  Controls,
  addEdge,
  applyEdgeChanges,
  applyNodeChanges,
  Handle,
  Position,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { get, missing, patch, post, put, Problem } from './api.js';
import { NODE_TYPES, onNodeTypesLoaded } from './nodeTypes.js';
import { nodeSummary } from './nodeSummary.js';
import { tidy } from './layout.js';
import { canvasDiff } from './diff.js';
import { fromFieldError, fromValidation, grouped } from './problems.js';
import { setUnsaved } from './unsaved.js';
import ConfigPanel from './ConfigPanel.jsx';

/** What the editor lends its node cards: adding the next node below one (absent in run views). */
const EditorActions = createContext(null);

/** The "+" under a node's output: a menu of node types; the one picked comes connected below. */
function AddNext({ nodeId }) {
  const actions = useContext(EditorActions);
  const [open, setOpen] = useState(false);
  if (!actions || actions.readOnly) return null;
  return (
    <div className="add-next nodrag nopan">
      <button
        type="button"
        className="add-next-button"
        aria-label="Add the next node"
        title={actions.busy || 'Add the next node, connected'}
        disabled={!!actions.busy}
        aria-expanded={open}
        onClick={(e) => {
          e.stopPropagation();
          setOpen(!open);
        }}
      >
        +
      </button>
      {open && (
        <div className="add-next-menu" role="menu">
          {Object.entries(NODE_TYPES)
            .filter(([, spec]) => !spec.trigger)
            .map(([type, spec]) => (
              <button
                key={type}
                type="button"
                role="menuitem"
                data-next={type}
                onClick={(e) => {
                  e.stopPropagation();
                  setOpen(false);
                  actions.addNext(nodeId, type);
                }}
              >
                {spec.label}
              </button>
            ))}
        </div>
      )}
    </div>
  );
}

/** A node on the canvas: its type, label, key settings and the problems found on it. */
function FlowNode({ id, data, type }) {
  const spec = NODE_TYPES[type] || { label: type };
  const summary = nodeSummary(type, data.config);
  return (
    <div
      className={`flow-node ${data.problems?.length ? 'has-problems' : ''} ${data.status || ''}`}
      data-node-type={type}
      title={data.problems?.map((p) => p.short).join('\n')}
    >
      {!spec.trigger && <Handle type="target" position={Position.Top} />}
      <div className="node-type">{spec.label}</div>
      <div className="node-label">{data.label}</div>
      {summary && <div className="node-summary">{summary}</div>}
      {data.problems?.length > 0 && <div className="node-problem">{data.problems[0].short}</div>}
      {data.status && <div className="node-status">{data.statusText || data.status}</div>}
      <Handle type="source" position={Position.Bottom} />
      <AddNext nodeId={id} />
    </div>
  );
}

/** The palette's groups, in order: (the node types' group, its heading). */
const PALETTE_GROUPS = [
  ['triggers', 'Triggers'],
  ['actions', 'Actions'],
  ['logic', 'Logic'],
  ['data', 'Data'],
];

/** The groups of the served node types: the known ones in order, then any other. */
function paletteGroups() {
  const known = PALETTE_GROUPS.map(([group]) => group);
  const others = [...new Set(Object.values(NODE_TYPES).map((spec) => spec.group))].filter(
    (group) => !known.includes(group),
  );
  return [...PALETTE_GROUPS, ...others.map((group) => [group, group[0].toUpperCase() + group.slice(1)])];
}

/** React Flow's node components: the one card for every node type the API serves. */
export const nodeTypes = {};
onNodeTypesLoaded(() => {
  for (const type of Object.keys(NODE_TYPES)) nodeTypes[type] = FlowNode;
});

/** API canvas → React Flow nodes and edges. */
export function toFlow(canvas) {
  return {
    nodes: canvas.nodes.map((n) => ({
      id: n.id,
      type: n.type,
      position: n.position || { x: 0, y: 0 },
      data: { label: n.data?.label || '', config: n.data?.config || {} },
    })),
    edges: canvas.edges.map((e) => ({
      id: e.id,
      source: e.source,
      target: e.target,
      label: e.label || undefined,
      data: { type: e.type },
    })),
  };
}

/** React Flow nodes and edges → the API's canvas. */
function toCanvas(nodes, edges) {
  return {
    nodes: nodes.map((n) => ({
      id: n.id,
      type: n.type,
      position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
      data: { label: n.data.label, config: n.data.config },
    })),
    edges: edges.map((e) => ({
      id: e.id,
      source: e.source,
      target: e.target,
      type: e.label ? 'conditional' : 'default',
      label: e.label || null,
    })),
  };
}

let counter = 0;
function newId(type) {
  counter += 1;
  return `${type.replace(/_/g, '-')}-${Date.now().toString(36)}${counter}`;
}

/** The label of the next edge out of a condition: its true branch first, then its false one. */
function branchLabel(source, edges) {
  if (source?.type !== 'condition') return undefined;
  const used = edges.filter((e) => e.source === source.id).map((e) => e.label);
  return used.includes('true') ? 'false' : 'true';
}

const FIT = { maxZoom: 1, padding: 0.25 };
const HISTORY_LIMIT = 100;

function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

export default function Editor({ me, sequenceId }) {
  const [sequence, setSequence] = useState(null);
  const [nodes, setNodes] = useState([]);
  const [edges, setEdges] = useState([]);
  const [version, setVersion] = useState(0);
  const [versions, setVersions] = useState([]);
  const [saved, setSaved] = useState(null);
  const [problemList, setProblemList] = useState([]);
  const [liveChecks, setLiveChecks] = useState(false);
  const [message, setMessage] = useState(null);
  const [suggestions, setSuggestions] = useState(null);
  const [prompt, setPrompt] = useState('');
  const [flow, setFlow] = useState(null);
  const [confirming, setConfirming] = useState(null);
  const [, setHistoryTick] = useState(0);
  // why the canvas cannot take edits now (it is being loaded or replaced), or null when it can:
  // an edit made while the stored canvas is on its way would be overwritten when it arrives
  const [busy, setBusy] = useState('The canvas is loading…');
  const history = useRef({ stack: [], index: -1, timer: null });
  const dragging = useRef(false);
  const cannotWrite = missing(me, 'sequences:write');

  const canvas = useMemo(() => toCanvas(nodes, edges), [nodes, edges]);
  const canvasKey = useMemo(() => JSON.stringify(canvas), [canvas]);
  const dirty = saved !== null && canvasKey !== saved;

  useEffect(() => {
    setUnsaved(dirty);
  }, [dirty]);
  useEffect(() => () => setUnsaved(false), []);

  const fit = useCallback(() => {
    // after React Flow has measured the nodes it was given
    if (flow) requestAnimationFrame(() => flow.fitView(FIT));
  }, [flow]);

  /** Shows this canvas, and starts a new history at it (after loading or saving). */
  const show = useCallback((apiCanvas) => {
    const converted = toFlow(apiCanvas);
    setNodes(converted.nodes);
    setEdges(converted.edges);
    const key = JSON.stringify(toCanvas(converted.nodes, converted.edges));
    setSaved(key);
    clearTimeout(history.current.timer);
    history.current = { stack: [key], index: 0, timer: null };
    setHistoryTick((t) => t + 1);
  }, []);

  const load = useCallback(async () => {
    const [seq, stored, list] = await Promise.all([
      get(`/api/v1/sequences/${sequenceId}`),
      get(`/api/sequences/${sequenceId}/canvas`),
      get(`/api/sequences/${sequenceId}/versions`),
    ]);
    setSequence(seq.sequence);
    show(stored.canvas);
    setVersion(stored.canvas.version);
    setVersions(list.versions);
    return stored.canvas;
  }, [sequenceId, show]);

  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    load()
      .then((stored) => {
        setLoaded(true);
        setBusy(null);
        // an activation refused on the list: each problem on the node it names
        const refused = sessionStorage.getItem(`problems.${sequenceId}`);
        if (refused) {
          sessionStorage.removeItem(`problems.${sequenceId}`);
          setProblemList(JSON.parse(refused).map((e) => fromFieldError(e, toFlow(stored).nodes)));
          setMessage('The flow cannot be activated yet: see the problems on its nodes.');
        }
      })
      .catch((e) => {
        setBusy('The canvas could not be loaded.');
        setMessage(e.message);
      });
  }, [load, sequenceId]);

  // the first fit once the stored canvas is on screen; an empty canvas keeps zoom 1
  const fitted = useRef(false);
  useEffect(() => {
    if (loaded && flow && !fitted.current) {
      fitted.current = true;
      if (nodes.length) fit();
    }
  }, [loaded, flow, nodes.length, fit]);

  // ---------------------------------------------------------------- undo and redo

  /** Records the canvas as the newest step of the history (coalescing quick edits). */
  const record = useCallback((key) => {
    const h = history.current;
    if (h.stack[h.index] === key) return;
    h.stack = h.stack.slice(0, h.index + 1).concat(key).slice(-HISTORY_LIMIT);
    h.index = h.stack.length - 1;
    setHistoryTick((t) => t + 1);
  }, []);

  useEffect(() => {
    const h = history.current;
    if (saved === null || dragging.current || h.stack[h.index] === canvasKey) return;
    clearTimeout(h.timer);
    h.timer = setTimeout(() => record(canvasKey), 300);
  }, [canvasKey, saved, record]);

  const step = useCallback(
    (by) => {
      const h = history.current;
      clearTimeout(h.timer);
      if (h.stack[h.index] !== canvasKey) record(canvasKey);
      const to = h.index + by;
      if (to < 0 || to >= h.stack.length) return;
      h.index = to;
      const converted = toFlow(JSON.parse(h.stack[to]));
      setNodes(converted.nodes);
      setEdges(converted.edges);
      setHistoryTick((t) => t + 1);
    },
    [canvasKey, record],
  );
  const canUndo = history.current.index > 0 || (saved !== null && history.current.stack[history.current.index] !== canvasKey);
  const canRedo = history.current.index < history.current.stack.length - 1;

  useEffect(() => {
    const keys = (event) => {
      if (busy || !(event.ctrlKey || event.metaKey) || typing(event.target)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) {
        event.preventDefault();
        step(-1);
      } else if ((key === 'z' && event.shiftKey) || key === 'y') {
        event.preventDefault();
        step(1);
      }
    };
    document.addEventListener('keydown', keys);
    return () => document.removeEventListener('keydown', keys);
  }, [step, busy]);

  // ---------------------------------------------------------------- checks on the canvas as drawn

  const problems = useMemo(() => grouped(problemList), [problemList]);

  const check = useCallback(
    async (body) => {
      const answer = await post(`/api/sequences/${sequenceId}/validate`, body);
      const list = answer.problems.map((p) => fromValidation(p, nodes));
      setProblemList(list);
      return { valid: answer.valid, list };
    },
    [sequenceId, nodes],
  );

  // once the designer has asked for checks, they follow every change
  useEffect(() => {
    if (!liveChecks) return undefined;
    const timer = setTimeout(() => {
      check(JSON.parse(canvasKey)).catch(() => {});
    }, 400);
    return () => clearTimeout(timer);
  }, [canvasKey, liveChecks]); // eslint-disable-line react-hooks/exhaustive-deps

  const selectedIds = nodes.filter((n) => n.selected).map((n) => n.id);
  const selected = selectedIds.length === 1 ? selectedIds[0] : null;

  const shownNodes = useMemo(
    () => nodes.map((n) => ({ ...n, data: { ...n.data, problems: problems.byNode[n.id] } })),
    [nodes, problems],
  );

  const onNodesChange = useCallback((changes) => setNodes((ns) => applyNodeChanges(changes, ns)), []);
  const onEdgesChange = useCallback((changes) => setEdges((es) => applyEdgeChanges(changes, es)), []);
  const onConnect = useCallback(
    (connection) => {
      const label = branchLabel(
        nodes.find((n) => n.id === connection.source),
        edges,
      );
      setEdges((es) => addEdge({ ...connection, id: newId('edge'), label }, es));
    },
    [nodes, edges],
  );

  /** A new node, the only one selected. */
  function place(type, position, extraEdges) {
    const id = newId(type);
    setNodes((ns) => [
      ...ns.map((n) => (n.selected ? { ...n, selected: false } : n)),
      { id, type, position, selected: true, data: { label: NODE_TYPES[type].label, config: {} } },
    ]);
    setEdges((es) => [...es.map((e) => (e.selected ? { ...e, selected: false } : e)), ...extraEdges(id)]);
    return id;
  }

  /** Where a clicked palette item lands: in the middle of what the canvas shows, clear of others. */
  function inView() {
    const area = document.querySelector('.flow')?.getBoundingClientRect();
    let at = { x: 80, y: 40 };
    if (flow && area) {
      at = flow.screenToFlowPosition({ x: area.left + area.width / 2 - 90, y: area.top + area.height / 3 });
    }
    // the nearest free spot around the middle, so that the new node covers none
    const free = (p) =>
      !nodes.some(
        (n) => Math.abs(n.position.x - p.x) < (n.measured?.width || 180) + 30 && Math.abs(n.position.y - p.y) < (n.measured?.height || 70) + 30,
      );
    for (const dy of [0, 110, -110, 220, -220]) {
      for (const dx of [0, 230, -230]) {
        const p = { x: at.x + dx, y: at.y + dy };
        if (free(p)) return p;
      }
    }
    return at;
  }

  function addNode(type, position) {
    place(type, position || inView(), () => []);
    if (!nodes.length) fit();
  }

  /** The "+" of a node: the next node, connected and placed below it, beside its siblings. */
  const addNext = useCallback(
    (sourceId, type) => {
      const source = nodes.find((n) => n.id === sourceId);
      if (!source) return;
      const siblings = edges.filter((e) => e.source === sourceId).length;
      const position = {
        x: source.position.x + siblings * 230,
        y: source.position.y + (source.measured?.height || 80) + 70,
      };
      const label = branchLabel(source, edges);
      place(type, position, (id) => [{ id: newId('edge'), source: sourceId, target: id, label }]);
    },
    [nodes, edges], // eslint-disable-line react-hooks/exhaustive-deps
  );

  /** Connects two nodes (the keyboard's way to draw an edge). */
  function connect(source, target) {
    onConnect({ source, target, sourceHandle: null, targetHandle: null });
  }

  function updateNode(id, data) {
    setNodes((ns) => ns.map((n) => (n.id === id ? { ...n, data: { ...n.data, ...data } } : n)));
  }

  function tidyUp(ns = nodes, es = edges) {
    setNodes(tidy(ns, es));
    fit();
  }

  async function run(action) {
    setMessage(null);
    try {
      await action();
    } catch (e) {
      if (e instanceof Problem) {
        if (e.errors.length) setProblemList(e.errors.map((x) => fromFieldError(x, nodes)));
        setMessage(e.message);
      } else {
        setMessage(e.message);
      }
    }
  }

  /** Runs an action that ends by showing the stored canvas; edits wait until it has. */
  async function replacing(reason, action) {
    setBusy(reason);
    try {
      await action();
    } finally {
      setBusy(null);
    }
  }

  const save = () =>
    run(() =>
      replacing('Saving…', async () => {
        const answer = await put(`/api/sequences/${sequenceId}/canvas`, canvas);
        if (!liveChecks) setProblemList([]);
        await load();
        setMessage(`Saved as version ${answer.version}.`);
      }),
    );

  const validate = () =>
    run(async () => {
      const { valid, list } = await check(canvas);
      setLiveChecks(true);
      setMessage(valid ? 'The flow is complete.' : `The flow is not complete yet: ${list.length} to fix.`);
    });

  /** Checks what is on screen; saves it first when it differs from the stored version. */
  const activate = (status) =>
    run(() =>
      replacing(status === 'active' ? 'Activating…' : 'Pausing…', async () => {
        if (status === 'active') {
          const { valid, list } = await check(canvas);
          setLiveChecks(true);
          if (!valid) {
            setMessage(`The flow cannot be activated yet: ${list.length} to fix, marked on its nodes.`);
            return;
          }
          if (dirty) await put(`/api/sequences/${sequenceId}/canvas`, canvas);
        }
        await patch(`/api/v1/sequences/${sequenceId}`, { status });
        setProblemList([]);
        await load();
        setMessage(status === 'active' ? 'Active.' : 'Paused.');
      }),
    );

  /** Asks with the changes listed; resolves whether the person went ahead. */
  function confirmReplace(title, before, after, action) {
    setConfirming({ title, diff: canvasDiff(before, after), action });
  }

  // the server copies the version with its own stored secrets, which the console never sees,
  // except that each webhook trigger keeps the secret it has now; a restore that would still
  // loosen a live trigger (its type, a new public one) is refused until confirmed
  const restore = (v) =>
    run(async () => {
      const old = await get(`/api/sequences/${sequenceId}/versions/${v}`);
      const send = (confirmed) =>
        run(() =>
          replacing('Restoring…', async () => {
            try {
              await post(
                `/api/sequences/${sequenceId}/versions/${v}/restore${confirmed ? '?confirm_looser_triggers=true' : ''}`,
              );
            } catch (e) {
              if (confirmed || !(e instanceof Problem) || e.status !== 409 || !e.errors.length) throw e;
              setConfirming({
                title: `Restoring version ${v} would loosen the live flow's triggers`,
                diff: canvasDiff(canvas, withKeptSecrets(canvas, old.canvas)),
                notes: [...e.errors.map((x) => looserTrigger(x, nodes)), RUNS_GO_ON],
                confirmLabel: 'Restore anyway',
                action: () => send(true),
              });
              return;
            }
            await load();
            setMessage(`Version ${v} restored as a new version.`);
          }),
        );
      setConfirming({
        title: `Restore version ${v}${sequence?.status === 'active' ? ' over the active flow' : ''}?`,
        diff: canvasDiff(canvas, withKeptSecrets(canvas, old.canvas)),
        notes: [KEPT_SECRETS, RUNS_GO_ON],
        action: () => send(false),
      });
    });

  const generate = () =>
    run(async () => {
      const answer = await post(`/api/sequences/${sequenceId}/generate`, { prompt, preview: true });
      const apply = () => {
        const converted = toFlow(answer);
        setEdges(converted.edges);
        tidyUp(converted.nodes, converted.edges);
        setMessage('Generated from the prompt and tidied up: look it over, then Save.');
      };
      if (sequence?.status === 'active' || nodes.length) {
        confirmReplace(
          `Replace ${sequence?.status === 'active' ? 'the active flow' : 'the canvas'} with the generated flow?`,
          canvas,
          answer,
          apply,
        );
      } else {
        apply();
      }
    });

  const optimize = () =>
    run(async () => {
      const answer = await post(`/api/sequences/${sequenceId}/optimize`, canvas);
      setSuggestions(answer.suggestions);
      setProblemList(
        answer.suggestions
          .filter((s) => s.target_node_id)
          .map((s) => ({ nodeId: s.target_node_id, key: null, text: s.title, short: `Suggestion: ${s.title}` })),
      );
      setMessage(
        answer.suggestions.length
          ? `${answer.suggestions.length} suggestion${answer.suggestions.length === 1 ? '' : 's'}: see the side panel.`
          : 'No suggestions: nothing to improve was found in this flow.',
      );
    });

  const selectedNode = nodes.find((n) => n.id === selected);
  const actions = useMemo(() => ({ addNext, readOnly: !!cannotWrite, busy }), [addNext, cannotWrite, busy]);

  return (
    <main className="editor" data-ready={!busy} aria-busy={!!busy}>
      <aside className="palette" aria-label="Node palette">
        <h2>Add a node</h2>
        {busy && (
          <p className="hint palette-busy" role="status">
            {busy}
          </p>
        )}
        {paletteGroups().map(([group, heading]) => {
          const types = Object.entries(NODE_TYPES).filter(([, spec]) => spec.group === group);
          return (
            types.length > 0 && (
              <div key={group} className="palette-group" role="group" aria-label={heading}>
                <h3>{heading}</h3>
                {types.map(([type, spec]) => (
                  <button
                    key={type}
                    type="button"
                    className="palette-item"
                    data-palette={type}
                    data-icon={spec.icon}
                    draggable={!busy}
                    onDragStart={(e) => e.dataTransfer.setData('application/x-node-type', type)}
                    onClick={() => addNode(type)}
                    disabled={!!cannotWrite || !!busy}
                    title={
                      cannotWrite || busy || `${spec.description}: add a ${spec.label} node (or drag it onto the canvas)`
                    }
                  >
                    {spec.label}
                  </button>
                ))}
              </div>
            )
          );
        })}
      </aside>
      <section className="canvas-area">
        <div className="toolbar">
          <strong className="flow-name" title={sequence?.name}>
            {sequence?.name}
          </strong>
          <span className={`status ${sequence?.status}`}>{sequence?.status}</span>
          <span>v{version}</span>
          {dirty && (
            <span className="unsaved" role="note" title="Changes not saved yet">
              ● Unsaved
            </span>
          )}
          <button type="button" onClick={() => step(-1)} disabled={!!busy || !canUndo} title={busy || 'Undo (Ctrl+Z)'} aria-label="Undo">
            ↶
          </button>
          <button type="button" onClick={() => step(1)} disabled={!!busy || !canRedo} title={busy || 'Redo (Ctrl+Shift+Z)'} aria-label="Redo">
            ↷
          </button>
          <button type="button" onClick={save} disabled={!!cannotWrite || !!busy || !dirty} title={cannotWrite || busy}>
            Save
          </button>
          <button type="button" onClick={validate} disabled={!!busy} title={busy || 'Checks the canvas as it is on screen'}>
            Validate
          </button>
          <button type="button" onClick={optimize} disabled={!!busy} title={busy || 'Suggestions for the canvas as it is on screen'}>
            Optimize
          </button>
          <button
            type="button"
            onClick={() => tidyUp()}
            disabled={!!busy || !nodes.length}
            title={busy || 'Lays the flow out from top to bottom'}
          >
            Tidy up
          </button>
          {sequence?.status === 'active' ? (
            <button type="button" onClick={() => activate('paused')} disabled={!!cannotWrite || !!busy} title={cannotWrite || busy}>
              Pause
            </button>
          ) : (
            <button
              type="button"
              onClick={() => activate('active')}
              disabled={!!cannotWrite || !!busy}
              title={cannotWrite || busy || (dirty ? 'Checks, saves and activates the flow on screen' : undefined)}
            >
              Activate
            </button>
          )}
          <a href={`#/sequences/${sequenceId}/runs`}>{sequence?.flow_type === 'sequence' ? 'Enrollments' : 'Runs'}</a>
        </div>
        {message && (
          <p role="status" className="message">
            {message}
          </p>
        )}
        {problems.general.length > 0 && (
          <ul className="problems" aria-label="Problems of the canvas">
            {problems.general.map((p) => (
              <li key={p.text}>{p.text}</li>
            ))}
          </ul>
        )}
        <div
          className="flow"
          onDragOver={(e) => e.preventDefault()}
          onDrop={(e) => {
            const type = e.dataTransfer.getData('application/x-node-type');
            if (type && flow && !busy) {
              addNode(type, flow.screenToFlowPosition({ x: e.clientX, y: e.clientY }));
            }
          }}
        >
          <EditorActions.Provider value={actions}>
            <ReactFlow
              nodes={shownNodes}
              edges={edges}
              nodeTypes={nodeTypes}
              onInit={setFlow}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              onNodeDragStart={() => {
                dragging.current = true;
              }}
              onNodeDragStop={() => {
                dragging.current = false;
                setHistoryTick((t) => t + 1);
              }}
              deleteKeyCode={busy ? null : ['Delete', 'Backspace']}
              nodesConnectable={!busy}
              fitViewOptions={FIT}
              maxZoom={2}
              minZoom={0.2}
              defaultViewport={{ x: 40, y: 20, zoom: 1 }}
              nodesFocusable
              edgesFocusable
            >
              <Background />
              <Controls position="bottom-right" fitViewOptions={FIT} />
            </ReactFlow>
          </EditorActions.Provider>
        </div>
      </section>
      <aside className="side" aria-label="Node settings">
        {selectedNode ? (
          <fieldset className="side-fields" disabled={!!busy} title={busy || undefined}>
          <ConfigPanel
            key={selectedNode.id}
            node={selectedNode}
            nodes={nodes}
            edges={edges}
            problems={problems.byNode[selectedNode.id] || []}
            tenantId={me.tenant_id}
            onChange={(data) => updateNode(selectedNode.id, data)}
            onConnect={(target) => connect(selectedNode.id, target)}
            onDelete={() => {
              setNodes((ns) => ns.filter((n) => n.id !== selectedNode.id));
              setEdges((es) => es.filter((e) => e.source !== selectedNode.id && e.target !== selectedNode.id));
            }}
          />
          </fieldset>
        ) : (
          <>
            <h2>Generate</h2>
            <label htmlFor="prompt">Describe the flow</label>
            <textarea id="prompt" value={prompt} onChange={(e) => setPrompt(e.target.value)} rows={4} />
            <button
              type="button"
              onClick={generate}
              disabled={!prompt.trim() || !!cannotWrite || !!busy}
              title={cannotWrite || busy}
            >
              Generate
            </button>
            {suggestions && (
              <>
                <h2>Suggestions</h2>
                {suggestions.length === 0 ? (
                  <p className="suggestions-none">None: nothing to improve was found.</p>
                ) : (
                  <ul className="suggestions">
                    {suggestions.map((s) => (
                      <li key={s.title + s.target_node_id}>
                        <strong>{s.priority}</strong> {s.title}
                      </li>
                    ))}
                  </ul>
                )}
              </>
            )}
            <h2>Versions</h2>
            <ul className="versions">
              {versions.map((v) => (
                <li key={v.version}>
                  v{v.version} · {v.node_count} nodes · {new Date(v.created_at).toLocaleString()}
                  {v.version !== version && (
                    <button
                      type="button"
                      onClick={() => restore(v.version)}
                      disabled={!!cannotWrite || !!busy}
                      title={cannotWrite || busy}
                    >
                      Restore
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </aside>
      {confirming && (
        <ConfirmReplace
          {...confirming}
          dirty={dirty}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            setConfirming(null);
            confirming.action();
          }}
        />
      )}
    </main>
  );
}

const KEPT_SECRETS =
  'Webhook triggers keep the secret (secretToken) they have now; a secret the restored version had is not brought back over it.';
const RUNS_GO_ON =
  'Runs in progress go on with the version they started with; runs that start after this use the restored version.';

/** The restored canvas as the server stores it: a webhook trigger keeps its current secret. */
function withKeptSecrets(current, restored) {
  const secrets = new Map(
    current.nodes
      .filter((n) => n.type === 'webhook_trigger' && n.data?.config?.secretToken)
      .map((n) => [n.id, n.data.config.secretToken]),
  );
  return {
    ...restored,
    nodes: restored.nodes.map((n) =>
      n.type === 'webhook_trigger' && secrets.has(n.id)
        ? { ...n, data: { ...n.data, config: { ...n.data?.config, secretToken: secrets.get(n.id) } } }
        : n,
    ),
  };
}

/** A trigger the server says would loosen, in words: its label, then what. */
function looserTrigger(error, nodes) {
  const id = (error.field || '').split('.')[1];
  const node = nodes.find((n) => n.id === id);
  return `${node?.data?.label || id}: ${error.message}.`;
}

/** The changes a replacement makes, listed before it is made, and what else it means. */
function ConfirmReplace({ title, diff, dirty, notes = [], confirmLabel = 'Replace', onCancel, onConfirm }) {
  const first = useRef(null);
  useEffect(() => {
    first.current?.focus();
  }, []);
  const nothing =
    !diff.added.length && !diff.removed.length && !diff.changed.length && !diff.edgesAdded && !diff.edgesRemoved;
  return (
    <div className="modal-backdrop">
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        onKeyDown={(e) => e.key === 'Escape' && onCancel()}
      >
        <h2 id="confirm-title">{title}</h2>
        {dirty && <p className="error">The unsaved changes on the canvas are replaced too.</p>}
        {notes.map((note) => (
          <p key={note} className="confirm-note">
            {note}
          </p>
        ))}
        {nothing ? (
          <p>No node or connection changes.</p>
        ) : (
          <ul className="diff">
            {diff.added.map((n) => (
              <li key={`a${n}`} className="diff-added">
                + {n}
              </li>
            ))}
            {diff.removed.map((n) => (
              <li key={`r${n}`} className="diff-removed">
                − {n}
              </li>
            ))}
            {diff.changed.map((n) => (
              <li key={`c${n}`} className="diff-changed">
                ~ {n}
              </li>
            ))}
            {(diff.edgesAdded > 0 || diff.edgesRemoved > 0) && (
              <li>
                connections: +{diff.edgesAdded} −{diff.edgesRemoved}
              </li>
            )}
          </ul>
        )}
        <div className="row">
          <button type="button" ref={first} onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="danger" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
