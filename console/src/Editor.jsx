import { useCallback, useEffect, useMemo, useState } from 'react';
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
import { NODE_TYPES } from './nodeTypes.js';
import ConfigPanel from './ConfigPanel.jsx';

/** A node on the canvas: its label, its type, and the problems the API named on it. */
function FlowNode({ data, type }) {
  const spec = NODE_TYPES[type] || { label: type };
  return (
    <div
      className={`flow-node ${data.problems?.length ? 'has-problems' : ''} ${data.status || ''}`}
      data-node-type={type}
      title={data.problems?.join('\n')}
    >
      {!spec.trigger && <Handle type="target" position={Position.Top} />}
      <div className="node-type">{spec.label}</div>
      <div className="node-label">{data.label}</div>
      {data.problems?.length > 0 && <div className="node-problem">{data.problems[0]}</div>}
      {data.status && <div className="node-status">{data.status}</div>}
      <Handle type="source" position={Position.Bottom} />
    </div>
  );
}

export const nodeTypes = Object.fromEntries(Object.keys(NODE_TYPES).map((t) => [t, FlowNode]));

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

/** "nodes.<id>.data.config.url" → {<id>: ["url: is required"]}; the rest stays canvas-wide. */
function problemsByNode(errors) {
  const byNode = {};
  const general = [];
  for (const e of errors || []) {
    const m = /^nodes\.([^.]+)(?:\.(.*))?$/.exec(e.field || '');
    if (m) {
      const field = (m[2] || '').replace(/^data\.config\./, '');
      (byNode[m[1]] ||= []).push(field ? `${field}: ${e.message}` : e.message);
    } else {
      general.push(`${e.field ? `${e.field}: ` : ''}${e.message}`);
    }
  }
  return { byNode, general };
}

let counter = 0;
function newId(type) {
  counter += 1;
  return `${type.replace(/_/g, '-')}-${Date.now().toString(36)}${counter}`;
}

export default function Editor({ me, sequenceId }) {
  const [sequence, setSequence] = useState(null);
  const [nodes, setNodes] = useState([]);
  const [edges, setEdges] = useState([]);
  const [version, setVersion] = useState(0);
  const [versions, setVersions] = useState([]);
  const [selected, setSelected] = useState(null);
  const [problems, setProblems] = useState({ byNode: {}, general: [] });
  const [message, setMessage] = useState(null);
  const [suggestions, setSuggestions] = useState([]);
  const [prompt, setPrompt] = useState('');
  const [flow, setFlow] = useState(null);
  const cannotWrite = missing(me, 'sequences:write');

  const load = useCallback(async () => {
    const [seq, canvas, list] = await Promise.all([
      get(`/api/v1/sequences/${sequenceId}`),
      get(`/api/sequences/${sequenceId}/canvas`),
      get(`/api/sequences/${sequenceId}/versions`),
    ]);
    setSequence(seq.sequence);
    const converted = toFlow(canvas.canvas);
    setNodes(converted.nodes);
    setEdges(converted.edges);
    setVersion(canvas.canvas.version);
    setVersions(list.versions);
  }, [sequenceId]);

  useEffect(() => {
    load().catch((e) => setMessage(e.message));
    const stored = sessionStorage.getItem(`problems.${sequenceId}`);
    if (stored) {
      sessionStorage.removeItem(`problems.${sequenceId}`);
      setProblems(problemsByNode(JSON.parse(stored)));
      setMessage('The flow cannot be activated yet: see the problems on its nodes.');
    }
  }, [load, sequenceId]);

  const shownNodes = useMemo(
    () =>
      nodes.map((n) => ({
        ...n,
        selected: n.id === selected,
        data: { ...n.data, problems: problems.byNode[n.id] },
      })),
    [nodes, problems, selected],
  );

  const onNodesChange = useCallback((changes) => setNodes((ns) => applyNodeChanges(changes, ns)), []);
  const onEdgesChange = useCallback((changes) => setEdges((es) => applyEdgeChanges(changes, es)), []);
  const onConnect = useCallback(
    (connection) => {
      const source = nodes.find((n) => n.id === connection.source);
      let label;
      if (source?.type === 'condition') {
        const used = edges.filter((e) => e.source === source.id).map((e) => e.label);
        label = used.includes('true') ? 'false' : 'true';
      }
      setEdges((es) => addEdge({ ...connection, id: newId('edge'), label }, es));
    },
    [nodes, edges],
  );

  function addNode(type, position) {
    const id = newId(type);
    const count = nodes.length;
    setNodes((ns) => [
      ...ns,
      {
        id,
        type,
        position: position || { x: 80 + (count % 4) * 60, y: 40 + count * 110 },
        data: { label: NODE_TYPES[type].label, config: {} },
      },
    ]);
    setSelected(id);
  }

  function updateNode(id, data) {
    setNodes((ns) => ns.map((n) => (n.id === id ? { ...n, data: { ...n.data, ...data } } : n)));
  }

  async function run(action) {
    setMessage(null);
    try {
      await action();
    } catch (e) {
      if (e instanceof Problem) {
        setProblems(problemsByNode(e.errors));
        setMessage(e.message);
      } else {
        setMessage(e.message);
      }
    }
  }

  const save = () =>
    run(async () => {
      const saved = await put(`/api/sequences/${sequenceId}/canvas`, toCanvas(nodes, edges));
      setProblems({ byNode: {}, general: [] });
      setMessage(`Saved as version ${saved.version}.`);
      await load();
    });

  const validate = () =>
    run(async () => {
      const answer = await post(`/api/sequences/${sequenceId}/validate`);
      setProblems(problemsByNode(answer.problems.map(problemField)));
      setMessage(answer.valid ? 'The flow is complete.' : 'The flow is not complete yet.');
    });

  const activate = (status) =>
    run(async () => {
      await patch(`/api/v1/sequences/${sequenceId}`, { status });
      setProblems({ byNode: {}, general: [] });
      setMessage(status === 'active' ? 'Active.' : 'Paused.');
      await load();
    });

  // the server copies the version with its own stored secrets, which the console never sees
  const restore = (v) =>
    run(async () => {
      await post(`/api/sequences/${sequenceId}/versions/${v}/restore`);
      setMessage(`Version ${v} restored as a new version.`);
      await load();
    });

  const generate = () =>
    run(async () => {
      await post(`/api/sequences/${sequenceId}/generate`, { prompt });
      setMessage('Generated from the prompt.');
      await load();
    });

  const optimize = () =>
    run(async () => {
      const answer = await post(`/api/sequences/${sequenceId}/optimize`);
      setSuggestions(answer.suggestions);
      const byNode = {};
      for (const s of answer.suggestions) {
        if (s.target_node_id) (byNode[s.target_node_id] ||= []).push(`suggestion: ${s.title}`);
      }
      setProblems({ byNode, general: [] });
    });

  const selectedNode = nodes.find((n) => n.id === selected);

  return (
    <main className="editor">
      <aside className="palette" aria-label="Node palette">
        <h2>Add a node</h2>
        {Object.entries(NODE_TYPES).map(([type, spec]) => (
          <button
            key={type}
            type="button"
            className="palette-item"
            data-palette={type}
            draggable
            onDragStart={(e) => e.dataTransfer.setData('application/x-node-type', type)}
            onClick={() => addNode(type)}
            disabled={!!cannotWrite}
            title={cannotWrite || `Add a ${spec.label} node (or drag it onto the canvas)`}
          >
            {spec.label}
          </button>
        ))}
      </aside>
      <section className="canvas-area">
        <div className="toolbar">
          <strong>{sequence?.name}</strong>
          <span className={`status ${sequence?.status}`}>{sequence?.status}</span>
          <span>version {version}</span>
          <button type="button" onClick={save} disabled={!!cannotWrite} title={cannotWrite}>
            Save
          </button>
          <button type="button" onClick={validate}>
            Validate
          </button>
          <button type="button" onClick={optimize}>
            Optimize
          </button>
          {sequence?.status === 'active' ? (
            <button type="button" onClick={() => activate('paused')} disabled={!!cannotWrite} title={cannotWrite}>
              Pause
            </button>
          ) : (
            <button type="button" onClick={() => activate('active')} disabled={!!cannotWrite} title={cannotWrite}>
              Activate
            </button>
          )}
          <a href={`#/sequences/${sequenceId}/runs`}>
            {sequence?.flow_type === 'sequence' ? 'Enrollments' : 'Runs'}
          </a>
        </div>
        {message && (
          <p role="status" className="message">
            {message}
          </p>
        )}
        {problems.general.length > 0 && (
          <ul className="problems" aria-label="Problems of the canvas">
            {problems.general.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        <div
          className="flow"
          onDragOver={(e) => e.preventDefault()}
          onDrop={(e) => {
            const type = e.dataTransfer.getData('application/x-node-type');
            if (type && flow) {
              addNode(type, flow.screenToFlowPosition({ x: e.clientX, y: e.clientY }));
            }
          }}
        >
          <ReactFlow
            nodes={shownNodes}
            edges={edges}
            nodeTypes={nodeTypes}
            onInit={setFlow}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
            onNodeClick={(_, node) => setSelected(node.id)}
            onPaneClick={() => setSelected(null)}
            deleteKeyCode={['Delete', 'Backspace']}
            fitView
          >
            <Background />
            <Controls />
          </ReactFlow>
        </div>
      </section>
      <aside className="side" aria-label="Node settings">
        {selectedNode ? (
          <ConfigPanel
            key={selectedNode.id}
            node={selectedNode}
            nodes={nodes}
            edges={edges}
            problems={problems.byNode[selectedNode.id] || []}
            tenantId={me.tenant_id}
            onChange={(data) => updateNode(selectedNode.id, data)}
            onDelete={() => {
              setNodes((ns) => ns.filter((n) => n.id !== selectedNode.id));
              setEdges((es) =>
                es.filter((e) => e.source !== selectedNode.id && e.target !== selectedNode.id),
              );
              setSelected(null);
            }}
          />
        ) : (
          <>
            <h2>Generate</h2>
            <label htmlFor="prompt">Describe the flow</label>
            <textarea id="prompt" value={prompt} onChange={(e) => setPrompt(e.target.value)} rows={4} />
            <button type="button" onClick={generate} disabled={!prompt.trim() || !!cannotWrite} title={cannotWrite}>
              Generate
            </button>
            {suggestions.length > 0 && (
              <>
                <h2>Suggestions</h2>
                <ul>
                  {suggestions.map((s) => (
                    <li key={s.title + s.target_node_id}>
                      <strong>{s.priority}</strong> {s.title}
                    </li>
                  ))}
                </ul>
              </>
            )}
            <h2>Versions</h2>
            <ul className="versions">
              {versions.map((v) => (
                <li key={v.version}>
                  v{v.version} · {v.node_count} nodes · {new Date(v.created_at).toLocaleString()}
                  {v.version !== version && (
                    <button type="button" onClick={() => restore(v.version)} disabled={!!cannotWrite}>
                      Restore
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </aside>
    </main>
  );
}

/** A validate problem {node_id, edge_id, field, message} as a field error. */
function problemField(p) {
  if (p.node_id) return { field: `nodes.${p.node_id}${p.field ? `.${p.field}` : ''}`, message: p.message };
  if (p.edge_id) return { field: `edges.${p.edge_id}${p.field ? `.${p.field}` : ''}`, message: p.message };
  return { field: 'canvas', message: p.message };
}
