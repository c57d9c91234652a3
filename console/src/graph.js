// The order of a flow: what runs before a node, and the names its outputs go by in templates.
import { NODE_TYPES } from './nodeTypes.js';

/** The ids of every node a node can be reached from. */
export function ancestorsOf(nodeId, edges) {
  const before = new Set();
  const todo = [nodeId];
  while (todo.length) {
    const id = todo.pop();
    for (const e of edges) {
      if (e.target === id && !before.has(e.source)) {
        before.add(e.source);
        todo.push(e.source);
      }
    }
  }
  return before;
}

/**
 * The nodes before a node, in the order a run meets them: each after every node it is reached
 * from (ties broken top to bottom, then left to right, as the canvas shows them).
 */
export function nodesBefore(nodeId, nodes, edges) {
  const before = ancestorsOf(nodeId, edges);
  const inner = edges.filter((e) => before.has(e.source) && before.has(e.target));
  const waiting = new Map([...before].map((id) => [id, inner.filter((e) => e.target === id).length]));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const place = (a, b) => {
    const pa = byId.get(a)?.position || { x: 0, y: 0 };
    const pb = byId.get(b)?.position || { x: 0, y: 0 };
    return pa.y - pb.y || pa.x - pb.x;
  };
  const order = [];
  let ready = [...waiting].filter(([, n]) => n === 0).map(([id]) => id);
  while (ready.length) {
    ready.sort(place);
    const id = ready.shift();
    order.push(id);
    for (const e of inner.filter((x) => x.source === id)) {
      const left = waiting.get(e.target) - 1;
      waiting.set(e.target, left);
      if (left === 0) ready.push(e.target);
    }
  }
  return order.map((id) => byId.get(id)).filter(Boolean);
}

/**
 * The earlier nodes whose outputs a node can read, each with its template name ({{<type>_<n>}}: the
 * n-th node of that type the run has met): [{node, name}].
 */
export function outputNamesBefore(nodeId, nodes, edges) {
  const counts = {};
  return nodesBefore(nodeId, nodes, edges)
    .filter((n) => !NODE_TYPES[n.type]?.trigger)
    .map((node) => {
      counts[node.type] = (counts[node.type] || 0) + 1;
      return { node, name: `${node.type}_${counts[node.type]}` };
    });
}
