import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ReactFlow, Background, Controls, addEdge, applyEdgeChanges, applyNodeChanges } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { can, get, missing, patch, post, put, Problem } from './api.js';
import { NODE_TYPES, nodeName, onNodeTypesLoaded, outcomesOf } from './nodeTypes.js';
import { tidy } from './layout.js';
import { canvasDiff } from './diff.js';
import { fromFieldError, fromValidation, grouped } from './problems.js';
import { setUnsaved } from './unsaved.js';
import { drawnEdge, edgeName, newId, outcomeFor, toCanvas, toFlow, withOutcome } from './flow.js';
import { EditorActions, FlowNode } from './FlowNode.jsx';
import { useFlowContext } from './flowContext.js';
import { InFlightChoice, defaultInFlight, statusChange } from './InFlight.jsx';
import { useNodeCounts } from './nodeCounts.js';
import TestRunDialog from './TestRunDialog.jsx';
import MoveRunsDialog from './MoveRunsDialog.jsx';
import ConfigPanel from './ConfigPanel.jsx';
import Confirm from './Confirm.jsx';
import GoalPanel from './GoalPanel.jsx';
import { goalText, storedGoal } from './goal.js';

export { toFlow } from './flow.js';

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

/** What screen readers say of a focused node or edge, beside its name. */
export const ARIA_LABELS = {
  'node.a11yDescription.default':
    'Press Enter to select this node and open its settings, the arrow keys to move it, Delete to remove it.',
  'edge.a11yDescription.default':
    'Press Enter to select this connection and choose its outcome, Delete to remove it.',
};

const FIT = { maxZoom: 1, padding: 0.25 };
const HISTORY_LIMIT = 100;
/** How long the checks wait after the last edit before they ask the server. */
export const CHECK_DELAY_MS = 400;

function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

export default function Editor({ me, sequenceId, generate: openGenerate }) {
  const [sequence, setSequence] = useState(null);
  const [nodes, setNodes] = useState([]);
  const [edges, setEdges] = useState([]);
  const [version, setVersion] = useState(0);
  // the flow's goal as edited (stored with the canvas version), or null: none
  const [goal, setGoal] = useState(null);
  const [versions, setVersions] = useState([]);
  const [saved, setSaved] = useState(null);
  // the problems the server's checks found on the canvas on screen, as of its last answer
  const [checked, setChecked] = useState({ list: [], key: null });
  const [message, setMessage] = useState(null);
  // what a refusal of the API said, with its field errors in words (about what was sent)
  const [refusal, setRefusal] = useState(null);
  const [suggestions, setSuggestions] = useState(null);
  const [prompt, setPrompt] = useState('');
  const [flow, setFlow] = useState(null);
  const [confirming, setConfirming] = useState(null);
  const [testing, setTesting] = useState(false);
  // what a pause does to the runs in progress, as chosen in its question
  const [inFlight, setInFlight] = useState('continue');
  // after a save of an active or paused flow: the dry run of moving the runs in older versions
  const [moveOffer, setMoveOffer] = useState(null);
  const [, setHistoryTick] = useState(0);
  // why the canvas cannot take edits now (it is being loaded or replaced), or null when it can:
  // an edit made while the stored canvas is on its way would be overwritten when it arrives
  const [busy, setBusy] = useState('The canvas is loading…');
  const history = useRef({ stack: [], index: -1, timer: null });
  const dragging = useRef(false);
  const promptField = useRef(null);
  const cannotWrite = missing(me, 'sequences:write');
  const context = useFlowContext(me, sequenceId);
  const counts = useNodeCounts(me, sequenceId, version);

  const canvas = useMemo(() => ({ ...toCanvas(nodes, edges), goal: storedGoal(goal) }), [nodes, edges, goal]);
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
    setGoal(apiCanvas.goal ?? null);
    const key = JSON.stringify({ ...toCanvas(converted.nodes, converted.edges), goal: storedGoal(apiCanvas.goal ?? null) });
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
      .then(() => {
        setLoaded(true);
        setBusy(null);
        // an activation refused on the list: the checks mark its problems on the nodes
        if (sessionStorage.getItem(`problems.${sequenceId}`)) {
          sessionStorage.removeItem(`problems.${sequenceId}`);
          setMessage({ checks: 'The flow cannot be activated yet' });
        }
      })
      .catch((e) => {
        setBusy('The canvas could not be loaded.');
        setMessage(e.message);
      });
  }, [load, sequenceId]);

  useEffect(() => {
    if (loaded && openGenerate) promptField.current?.focus();
  }, [loaded, openGenerate]);

  // the first fit once the stored canvas is on screen and measured (a fit before React Flow knows
  // the nodes' sizes fits nothing); an empty canvas keeps zoom 1
  const fitted = useRef(false);
  const measured = nodes.length > 0 && nodes.every((n) => n.measured?.width);
  useEffect(() => {
    if (!loaded || !flow || fitted.current) return;
    if (!nodes.length) fitted.current = true;
    else if (measured) {
      fitted.current = true;
      fit();
    }
  }, [loaded, flow, nodes.length, measured, fit]);

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
      const stepped = JSON.parse(h.stack[to]);
      const converted = toFlow(stepped);
      setNodes(converted.nodes);
      setEdges(converted.edges);
      setGoal(stepped.goal ?? null);
      setHistoryTick((t) => t + 1);
    },
    [canvasKey, record],
  );
  const canUndo = history.current.index > 0 || (saved !== null && history.current.stack[history.current.index] !== canvasKey);
  const canRedo = history.current.index < history.current.stack.length - 1;

  // ---------------------------------------------------------------- checks as drawn

  // answers to checks of an older canvas than the newest one asked about are dropped
  const asked = useRef(0);
  const check = useCallback(
    async (body, key) => {
      const ticket = ++asked.current;
      const answer = await post(`/api/sequences/${sequenceId}/validate`, body);
      const list = answer.problems.map((p) => fromValidation(p, body.nodes));
      if (ticket === asked.current) setChecked({ list, key });
      return { valid: answer.valid, list };
    },
    [sequenceId],
  );

  // every change is checked by the server's rules once the drawing pauses
  useEffect(() => {
    if (!loaded || busy) return undefined;
    const timer = setTimeout(() => {
      check(JSON.parse(canvasKey), canvasKey).catch(() => {});
    }, CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [canvasKey, loaded, busy, check]);

  const problemList = checked.list;
  const problems = useMemo(() => grouped(problemList), [problemList]);
  const checking = loaded && checked.key !== canvasKey;

  const selectedIds = nodes.filter((n) => n.selected).map((n) => n.id);
  const selected = selectedIds.length === 1 ? selectedIds[0] : null;
  const selectedEdges = edges.filter((e) => e.selected);
  const selectedEdge = !selectedIds.length && selectedEdges.length === 1 ? selectedEdges[0] : null;

  const suggestionsByNode = useMemo(() => {
    const out = {};
    for (const s of suggestions || []) {
      if (s.target_node_id) (out[s.target_node_id] ||= []).push({ short: `Suggestion: ${s.title}` });
    }
    return out;
  }, [suggestions]);

  const shownNodes = useMemo(
    () =>
      nodes.map((n) => {
        const own = problems.byNode[n.id] || [];
        return {
          ...n,
          ariaLabel: `${nodeName(n)}${own.length ? `, ${plural(own.length, 'problem')}` : ''}`,
          data: { ...n.data, problems: own, suggestions: suggestionsByNode[n.id], counts: counts.byNode[n.id] },
        };
      }),
    [nodes, problems, suggestionsByNode, counts.byNode],
  );
  const shownEdges = useMemo(() => edges.map((e) => drawnEdge(e, nodes)), [edges, nodes]);

  const onNodesChange = useCallback((changes) => setNodes((ns) => applyNodeChanges(changes, ns)), []);
  const onEdgesChange = useCallback((changes) => setEdges((es) => applyEdgeChanges(changes, es)), []);

  /** A new edge; out of a branching node, on the outcome of the handle it was drawn from. */
  const onConnect = useCallback(
    (connection) => {
      const source = nodes.find((n) => n.id === connection.source);
      const label = outcomeFor(source, edges, connection.sourceHandle);
      setEdges((es) => addEdge({ ...connection, sourceHandle: label ?? null, id: newId('edge'), label }, es));
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
      for (const dx of [0, 260, -260]) {
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

  /** The "+" of a node: the next node, connected on that outcome, below it beside its siblings. */
  const addNext = useCallback(
    (sourceId, type, outcome) => {
      const source = nodes.find((n) => n.id === sourceId);
      if (!source) return;
      const outcomes = outcomesOf(source);
      const siblings = edges.filter((e) => e.source === sourceId).length;
      const column = outcome && outcomes.includes(outcome) ? outcomes.indexOf(outcome) - (outcomes.length - 1) / 2 : siblings;
      const position = {
        x: source.position.x + column * 230,
        y: source.position.y + (source.measured?.height || 80) + 70,
      };
      const label = outcomeFor(source, edges, outcome);
      place(type, position, (id) => [{ id: newId('edge'), source: sourceId, target: id, label, sourceHandle: label ?? null }]);
    },
    [nodes, edges], // eslint-disable-line react-hooks/exhaustive-deps
  );

  /** Connects two nodes (the keyboard's way to draw an edge), on an outcome for a branching one. */
  function connect(source, target, outcome) {
    onConnect({ source, target, sourceHandle: outcome ?? null, targetHandle: null });
  }

  function updateNode(id, data) {
    setNodes((ns) => ns.map((n) => (n.id === id ? { ...n, data: { ...n.data, ...data } } : n)));
  }

  function removeNodes(ids) {
    const gone = new Set(ids);
    setNodes((ns) => ns.filter((n) => !gone.has(n.id)));
    setEdges((es) => es.filter((e) => !gone.has(e.source) && !gone.has(e.target)));
  }

  /** Shows the flow's settings (its goal): nothing selected. */
  function showFlowSettings() {
    setNodes((ns) => ns.map((n) => (n.selected ? { ...n, selected: false } : n)));
    setEdges((es) => es.map((e) => (e.selected ? { ...e, selected: false } : e)));
  }

  function removeEdges(ids) {
    const gone = new Set(ids);
    setEdges((es) => es.filter((e) => !gone.has(e.id)));
  }

  // ---------------------------------------------------------------- keys

  useEffect(() => {
    const keys = (event) => {
      if (busy || typing(event.target) || document.querySelector('[role=dialog]')) return;
      if (event.key === 'Delete' || event.key === 'Backspace') {
        // from the canvas only: a key pressed on a toolbar button removes nothing
        if (cannotWrite || !(document.querySelector('.flow')?.contains(event.target) || event.target === document.body)) return;
        // what has the focus goes, whatever else is selected: a focused edge alone, a focused node
        // with its edges; with neither focused, what is selected
        const focused = document.activeElement;
        const edge = focused?.closest?.('.react-flow__edge');
        const node = focused?.closest?.('.react-flow__node');
        event.preventDefault();
        if (edge?.dataset.id) removeEdges([edge.dataset.id]);
        else if (node?.dataset.id) removeNodes([node.dataset.id]);
        else {
          removeEdges(edges.filter((e) => e.selected).map((e) => e.id));
          removeNodes(nodes.filter((n) => n.selected).map((n) => n.id));
        }
        return;
      }
      if (!(event.ctrlKey || event.metaKey)) return;
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
  }, [step, busy, nodes, edges, cannotWrite]); // eslint-disable-line react-hooks/exhaustive-deps

  function tidyUp(ns = nodes, es = edges) {
    setNodes(tidy(ns, es));
    fit();
  }

  // ---------------------------------------------------------------- actions

  /**
   * Runs an action; a refusal is said with its field errors in the designer's words. Those errors
   * are about what was sent, which may not be the canvas on screen (a restored version), so the
   * nodes keep showing what the checks of the screen find.
   */
  async function run(action) {
    setMessage(null);
    setRefusal(null);
    try {
      await action();
    } catch (e) {
      if (e instanceof Problem) {
        setRefusal({ text: e.message, errors: e.errors.map((x) => fromFieldError(x, nodes).text) });
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

  /** Saves a draft as it is, problems and all, and says what is left to fix. */
  const save = () =>
    run(() =>
      replacing('Saving…', async () => {
        const body = canvas;
        const answer = await put(`/api/sequences/${sequenceId}/canvas`, body);
        const judged = await check(body, JSON.stringify(body)).catch(() => null);
        await load();
        const left = judged?.list.length || 0;
        setMessage(
          `Saved as version ${answer.version}.${left ? ` ${plural(left, 'problem')} to fix before it can be activated: see the marked nodes.` : ''}`,
        );
        await offerMove(answer.version);
      }),
    );

  /**
   * After a new version of an active or paused flow (a save, a restore): the runs waiting in older
   * versions, or held there by the pause, counted by a dry run, are offered the move to it.
   */
  async function offerMove(toVersion) {
    if (sequence?.status !== 'active' && sequence?.status !== 'paused') return;
    const plan = await post(`/api/sequences/${sequenceId}/runs/move`, {
      to_version: toVersion,
      dry_run: true,
    }).catch(() => null);
    if (plan && plan.would_move + plan.cannot_move > 0) setMoveOffer(plan);
  }

  const validate = () =>
    run(async () => {
      await check(canvas, canvasKey);
      setMessage({ checks: 'The flow is not complete yet' });
    });

  /** Checks what is on screen; saves it first when it differs from the stored version. */
  const activate = (status, inFlight) =>
    run(() =>
      replacing(status === 'active' ? 'Activating…' : 'Pausing…', async () => {
        if (status === 'active') {
          const judged = await check(canvas, canvasKey);
          if (!judged.valid) {
            setMessage({ checks: 'The flow cannot be activated yet' });
            return;
          }
          if (dirty) await put(`/api/sequences/${sequenceId}/canvas`, canvas);
        }
        await patch(`/api/v1/sequences/${sequenceId}`, statusChange(status, inFlight));
        await load();
        setMessage(status === 'active' ? 'Active.' : 'Paused.');
      }),
    );

  /** Pausing an active flow asks first, saying what becomes of its runs in progress, and how many. */
  const pause = async () => {
    let running = null;
    if (can(me, 'automation_runs:read')) {
      running = await get(`/api/v1/automation-runs?sequence_id=${sequenceId}&status=running&limit=1`)
        .then((answer) => answer.total)
        .catch(() => null);
    }
    setInFlight(defaultInFlight('pause'));
    setConfirming({
      title: `Pause “${sequence?.name}”?`,
      body: (
        <p>
          It starts no new runs while paused: its triggers are answered but start nothing, and its schedules stop.
          Activate it again to start new runs.
        </p>
      ),
      inFlight: { kind: 'pause', running },
      confirm: 'Pause',
      action: (chosen) => activate('paused', chosen),
    });
  };

  /** Asks with the changes listed; goes ahead only on Replace. */
  function confirmReplace(title, before, after, action) {
    setConfirming({ replace: true, title, diff: canvasDiff(before, after), action });
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
            let restored;
            try {
              restored = await post(
                `/api/sequences/${sequenceId}/versions/${v}/restore${confirmed ? '?confirm_looser_triggers=true' : ''}`,
              );
            } catch (e) {
              if (confirmed || !(e instanceof Problem) || e.status !== 409 || !e.errors.length) throw e;
              setConfirming({
                replace: true,
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
            await offerMove(restored.version);
          }),
        );
      setConfirming({
        replace: true,
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
      setMessage(
        answer.suggestions.length
          ? `${plural(answer.suggestions.length, 'suggestion')}: see the side panel.`
          : 'No suggestions: nothing to improve was found in this flow.',
      );
    });

  const selectedNode = nodes.find((n) => n.id === selected);
  const names = useMemo(
    () => ({ templates: Object.fromEntries((context.templates || []).map((t) => [t.id, t.name])) }),
    [context.templates],
  );
  const actions = useMemo(() => ({ addNext, readOnly: !!cannotWrite, busy, names }), [addNext, cannotWrite, busy, names]);
  const messageText =
    message && typeof message === 'object'
      ? problemList.length
        ? `${message.checks}: ${problemList.length} to fix.`
        : 'The flow is complete.'
      : message;

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
        <div className="flow-head">
          <h1 className="flow-name" title={sequence?.name}>
            {sequence?.name}
          </h1>
          <span className={`status ${sequence?.status}`}>{sequence?.status}</span>
          <span>v{version}</span>
          {counts.refresh && version > 0 && (
            <button type="button" className="refresh-counts" onClick={counts.refresh} title="The runs waiting at, passed, failed at each node of the saved version, read again">
              ↻ Counts
            </button>
          )}
          {dirty && (
            <span className="unsaved" role="note" title="Changes not saved yet">
              ● Unsaved
            </span>
          )}
          <span
            className={`check-count ${problemList.length ? 'has-problems' : 'clean'}`}
            aria-live="polite"
            title={checking ? 'Checking the canvas…' : 'What the server’s checks find on the canvas on screen'}
            data-checking={checking}
          >
            {loaded && (problemList.length ? `${problemList.length} to fix` : '✓ complete')}
          </span>
        </div>
        <div className="toolbar">
          <button type="button" onClick={() => step(-1)} disabled={!!busy || !canUndo} title={busy || 'Undo (Ctrl+Z)'} aria-label="Undo">
            ↶
          </button>
          <button type="button" onClick={() => step(1)} disabled={!!busy || !canRedo} title={busy || 'Redo (Ctrl+Shift+Z)'} aria-label="Redo">
            ↷
          </button>
          <button
            type="button"
            onClick={save}
            disabled={!!cannotWrite || !!busy || !dirty}
            title={cannotWrite || busy || (problemList.length ? 'Saves the draft; it can be activated once its problems are fixed' : undefined)}
          >
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
          {/* what runs the flow: its status toggle and its runs (a test run belongs here) */}
          <span className="toolbar-group run-actions">
            {sequence?.status === 'active' ? (
              <button type="button" onClick={pause} disabled={!!cannotWrite || !!busy} title={cannotWrite || busy}>
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
            <button
              type="button"
              onClick={() => setTesting(true)}
              disabled={!!cannotWrite || !!busy || dirty || !version}
              title={
                cannotWrite ||
                busy ||
                (dirty || !version
                  ? 'Save first: a test run runs the saved canvas'
                  : 'Runs the flow, or the selected node, for one contact; nothing is sent')
              }
            >
              Test run
            </button>
            <a href={`#/sequences/${sequenceId}/runs`}>{sequence?.flow_type === 'sequence' ? 'Enrollments' : 'Runs'}</a>
          </span>
        </div>
        {messageText && (
          <p role="status" className="message">
            {messageText}
          </p>
        )}
        {refusal && (
          <div role="alert" className="refusal">
            <p className="error">{refusal.text}</p>
            {refusal.errors.length > 0 && (
              <ul>
                {refusal.errors.map((t) => (
                  <li key={t}>{t}</li>
                ))}
              </ul>
            )}
          </div>
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
          {goal && (
            <button
              type="button"
              className="goal-badge"
              onClick={showFlowSettings}
              title="The flow's goal: a run whose contact meets it ends, completed. Click to edit it."
            >
              <span aria-hidden="true">◎ </span>Goal: {goalText(goal)}
            </button>
          )}
          <EditorActions.Provider value={actions}>
            <ReactFlow
              nodes={shownNodes}
              edges={shownEdges}
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
              deleteKeyCode={null}
              nodesConnectable={!busy && !cannotWrite}
              fitViewOptions={FIT}
              maxZoom={2}
              minZoom={0.2}
              defaultViewport={{ x: 40, y: 20, zoom: 1 }}
              nodesFocusable
              edgesFocusable
              ariaLabelConfig={ARIA_LABELS}
            >
              <Background />
              <Controls position="bottom-right" fitViewOptions={FIT} />
            </ReactFlow>
          </EditorActions.Provider>
        </div>
        {moveOffer && <MoveRunsDialog sequenceId={sequenceId} plan={moveOffer} onClose={() => setMoveOffer(null)} />}
        {testing && (
          <TestRunDialog
            sequenceId={sequenceId}
            sample={context.sample}
            node={selectedNode && !NODE_TYPES[selectedNode.type]?.trigger ? { id: selectedNode.id, label: selectedNode.data?.label || selectedNode.id } : null}
            onClose={() => setTesting(false)}
            onStarted={(runId) => {
              window.location.hash = `#/sequences/${sequenceId}/runs/${runId}`;
            }}
          />
        )}
      </section>
      <aside
        className="side"
        aria-label={selectedNode ? 'Node settings' : selectedEdge ? 'Connection settings' : 'Flow settings'}
      >
        {selectedNode ? (
          <fieldset className="side-fields" disabled={!!busy} title={busy || undefined}>
            <ConfigPanel
              key={selectedNode.id}
              node={selectedNode}
              nodes={nodes}
              edges={edges}
              problems={problems.byNode[selectedNode.id] || []}
              tenantId={me.tenant_id}
              context={context}
              onChange={(data) => updateNode(selectedNode.id, data)}
              onConnect={(target, outcome) => connect(selectedNode.id, target, outcome)}
              onDelete={() => removeNodes([selectedNode.id])}
              onTestEvent={context.useSample}
            />
          </fieldset>
        ) : selectedEdge ? (
          <fieldset className="side-fields" disabled={!!busy || !!cannotWrite} title={busy || cannotWrite || undefined}>
            <EdgePanel
              key={selectedEdge.id}
              edge={selectedEdge}
              nodes={nodes}
              onOutcome={(outcome) => setEdges((es) => withOutcome(es, selectedEdge.id, outcome, nodes))}
              onDelete={() => removeEdges([selectedEdge.id])}
            />
          </fieldset>
        ) : (
          <>
            <fieldset className="side-fields" disabled={!!busy || !!cannotWrite} title={busy || cannotWrite || undefined}>
              <GoalPanel goal={goal} onChange={setGoal} />
            </fieldset>
            <h2>Generate</h2>
            <label htmlFor="prompt">Describe the flow</label>
            <textarea id="prompt" ref={promptField} value={prompt} onChange={(e) => setPrompt(e.target.value)} rows={4} />
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
      {confirming?.replace && (
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
      {confirming && !confirming.replace && (
        <Confirm
          title={confirming.title}
          confirm={confirming.confirm}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            setConfirming(null);
            confirming.action(confirming.inFlight ? inFlight : undefined);
          }}
        >
          {confirming.body}
          {confirming.inFlight && <InFlightChoice {...confirming.inFlight} value={inFlight} onChange={setInFlight} />}
        </Confirm>
      )}
    </main>
  );
}

const KEPT_SECRETS =
  'Webhook triggers keep the secret (secretToken) they have now; a secret the restored version had is not brought back over it.';
const RUNS_GO_ON =
  'Runs in progress go on with the version they started with, unless moved: an active flow then offers to move the runs waiting in older versions to the restored one. Runs that start after this use the restored version.';

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

/**
 * A selected connection: where it goes, the outcome it leaves on (for a node that branches: one of
 * its outcomes), and a way to remove it.
 */
export function EdgePanel({ edge, nodes, onOutcome, onDelete }) {
  const source = nodes.find((n) => n.id === edge.source);
  const outcomes = source ? outcomesOf(source) : [];
  return (
    <form className="config edge-panel" onSubmit={(e) => e.preventDefault()} aria-label={edgeName(edge, nodes)}>
      <h2>Connection</h2>
      <p>
        {nodeName(source)} → {nodeName(nodes.find((n) => n.id === edge.target))}
      </p>
      {outcomes.length > 0 ? (
        <div className="field">
          <label htmlFor="edge-outcome">Outcome</label>
          <select id="edge-outcome" value={edge.label ?? ''} onChange={(e) => onOutcome(e.target.value)}>
            {!outcomes.includes(edge.label) && <option value={edge.label ?? ''}>{edge.label || '—'} (not an outcome of this node)</option>}
            {outcomes.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
          <p className="field-help">The run takes this connection when “{source?.data.label}” ends on this outcome.</p>
        </div>
      ) : (
        <p className="hint">Every run that leaves “{source?.data.label}” takes it.</p>
      )}
      <button type="button" className="danger" onClick={onDelete}>
        Delete connection
      </button>
    </form>
  );
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
