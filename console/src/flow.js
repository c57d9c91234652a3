// The canvas as the API stores it and as React Flow draws it, and back; each edge of a branching
// node leaves from the handle of its outcome (its label).
import { NODE_TYPES, branches, nodeName, outcomesOf } from './nodeTypes.js';

/** How a connection is named to a person: "Connection from Webhook to Email “Hi”, on true". */
export function edgeName(edge, nodes) {
  const source = nodes.find((n) => n.id === edge.source);
  const target = nodes.find((n) => n.id === edge.target);
  return `Connection from ${nodeName(source)} to ${nodeName(target)}${edge.label ? `, on ${edge.label}` : ''}`;
}

/** The edge as React Flow draws it: from its outcome's handle, named for screen readers. */
export function drawnEdge(edge, nodes) {
  const source = nodes.find((n) => n.id === edge.source);
  const outcomes = source ? outcomesOf(source) : [];
  return {
    ...edge,
    sourceHandle: edge.label && outcomes.includes(edge.label) ? edge.label : null,
    ariaLabel: edgeName(edge, nodes),
  };
}

/** API canvas → React Flow nodes and edges. */
export function toFlow(canvas) {
  const nodes = canvas.nodes.map((n) => ({
    id: n.id,
    type: n.type,
    position: n.position || { x: 0, y: 0 },
    data: { label: n.data?.label || '', config: n.data?.config || {} },
  }));
  const edges = canvas.edges.map((e) =>
    drawnEdge(
      {
        id: e.id,
        source: e.source,
        target: e.target,
        label: e.label || undefined,
        data: { type: e.type },
      },
      nodes,
    ),
  );
  return { nodes, edges };
}

/** React Flow nodes and edges → the API's canvas. */
export function toCanvas(nodes, edges) {
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
export function newId(type) {
  counter += 1;
  return `${type.replace(/_/g, '-')}-${Date.now().toString(36)}${counter}`;
}

/**
 * The outcome a new edge out of this node takes: the one asked for, else the first of its
 * outcomes no edge takes yet (a condition's true, then false), else its first; undefined for a
 * node that does not branch.
 */
export function outcomeFor(source, edges, asked) {
  if (!branches(source)) return undefined;
  const outcomes = outcomesOf(source);
  if (asked && outcomes.includes(asked)) return asked;
  const used = edges.filter((e) => e.source === source.id).map((e) => e.label);
  return outcomes.find((o) => !used.includes(o)) || outcomes[0];
}

/** The edges after one changes its outcome: its label and handle follow. */
export function withOutcome(edges, edgeId, outcome, nodes) {
  return edges.map((e) => (e.id === edgeId ? drawnEdge({ ...e, label: outcome || undefined }, nodes) : e));
}

/** Whether a node type can be the target of an edge (triggers cannot). */
export function acceptsEdges(node) {
  return !NODE_TYPES[node?.type]?.trigger;
}
