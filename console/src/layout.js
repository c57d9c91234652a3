// "Tidy up": the canvas laid out top to bottom (as its handles are), by dagre.
import dagre from '@dagrejs/dagre';

const WIDTH = 200;
const HEIGHT = 80;

/** The nodes placed in layers from the trigger down; edges are untouched. */
export function tidy(nodes, edges) {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'TB', nodesep: 50, ranksep: 70, marginx: 20, marginy: 20 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) {
    graph.setNode(n.id, { width: n.measured?.width || WIDTH, height: n.measured?.height || HEIGHT });
  }
  for (const e of edges) graph.setEdge(e.source, e.target);
  dagre.layout(graph);
  return nodes.map((n) => {
    const placed = graph.node(n.id);
    const width = n.measured?.width || WIDTH;
    const height = n.measured?.height || HEIGHT;
    return { ...n, position: { x: Math.round(placed.x - width / 2), y: Math.round(placed.y - height / 2) } };
  });
}
