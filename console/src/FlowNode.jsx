import { createContext, useContext, useEffect } from 'react';
import { Handle, Position, useUpdateNodeInternals } from '@xyflow/react';
import { NODE_TYPES, outcomesOf } from './nodeTypes.js';
import { nodeSummary } from './nodeSummary.js';
import { countsText } from './nodeCounts.js';
import Menu from './Menu.jsx';

/** What the editor lends its node cards: adding the next node below one (absent in run views). */
export const EditorActions = createContext(null);

/**
 * The "+" under a node's output (under each of its outcomes): a menu of node types; the one picked
 * comes connected below, on that outcome.
 */
export function AddNext({ nodeId, outcome }) {
  const actions = useContext(EditorActions);
  if (!actions || actions.readOnly) return null;
  const name = outcome ? `Add the next node on ${outcome}` : 'Add the next node';
  return (
    <Menu
      className="add-next nodrag nopan"
      buttonClass="add-next-button"
      buttonText="+"
      label={name}
      title={actions.busy || `${name}, connected`}
      disabled={!!actions.busy}
      menuData={{ 'data-for': nodeId }}
      items={Object.entries(NODE_TYPES)
        .filter(([, spec]) => !spec.trigger)
        .map(([type, spec]) => ({
          key: type,
          label: spec.label,
          data: { 'data-next': type },
          onSelect: () => actions.addNext(nodeId, type, outcome),
        }))}
    />
  );
}

/**
 * A node on the canvas: its type, label, key settings, every problem the checks found on it (and
 * the optimizer's suggestions, apart from them), and an output handle per outcome, labelled.
 */
export function FlowNode({ id, data, type }) {
  const spec = NODE_TYPES[type] || { label: type, outputs: [] };
  const actions = useContext(EditorActions);
  const summary = nodeSummary(type, data.config, actions?.names);
  const outcomes = outcomesOf({ type, data });
  const updateInternals = useUpdateNodeInternals();
  const handlesKey = outcomes.join('\u0000');
  useEffect(() => {
    updateInternals(id);
  }, [id, handlesKey, updateInternals]);
  const problems = data.problems || [];
  const suggestions = data.suggestions || [];
  return (
    <div
      className={`flow-node ${problems.length ? 'has-problems' : ''} ${suggestions.length ? 'has-suggestions' : ''} ${data.status || ''} ${outcomes.length ? 'branching' : ''}`}
      data-node-type={type}
      title={[...problems.map((p) => p.short), ...suggestions.map((s) => s.short)].join('\n') || undefined}
    >
      {!spec.trigger && <Handle type="target" position={Position.Top} />}
      <div className="node-type">{spec.label}</div>
      <div className="node-label">{data.label}</div>
      {summary && <div className="node-summary">{summary}</div>}
      {problems.length > 0 && (
        <ul className="node-problems">
          {problems.map((p) => (
            <li key={p.short} className="node-problem">
              {p.short}
            </li>
          ))}
        </ul>
      )}
      {suggestions.length > 0 && (
        <ul className="node-suggestions">
          {suggestions.map((s) => (
            <li key={s.short} className="node-suggestion">
              {s.short}
            </li>
          ))}
        </ul>
      )}
      {countsText(data.counts) && (
        <div className="node-counts" title="Runs of the saved version at this node">
          {countsText(data.counts)}
        </div>
      )}
      {data.status && <div className="node-status">{data.statusText || data.status}</div>}
      {outcomes.length ? (
        <div className="outcomes">
          {outcomes.map((outcome, i) => {
            const left = `${((i + 1) / (outcomes.length + 1)) * 100}%`;
            return (
              <div key={outcome} className="outcome" style={{ left }} data-outcome={outcome}>
                <span className="outcome-label">{outcome}</span>
                <Handle type="source" position={Position.Bottom} id={outcome} title={`${outcome}: drag to connect`} />
                <AddNext nodeId={id} outcome={outcome} />
              </div>
            );
          })}
        </div>
      ) : (
        <>
          <Handle type="source" position={Position.Bottom} />
          <AddNext nodeId={id} />
        </>
      )}
    </div>
  );
}
