// Problems of a canvas in the designer's words, each attached to its node (and config field) so
// that the canvas and the settings panel can mark them.
import { NODE_TYPES } from './nodeTypes.js';

/** The config key of a problem's field ("data.config.url" → "url"), or null. */
function configKey(field) {
  const m = /^data\.config\.(.+)$/.exec(field || '');
  return m ? m[1] : null;
}

function fieldLabelOf(type, key) {
  return NODE_TYPES[type]?.fields.find((f) => f.key === key)?.label.replace(/ \(.*\)$/, '');
}

/**
 * A problem of POST /validate ({node_id, edge_id, field, message, node_label, field_label, text})
 * as {nodeId, edgeId, key, text, short}: text names the node, short is what its card and form show.
 */
export function fromValidation(p, nodes) {
  const key = configKey(p.field);
  let short = p.text || p.message;
  if (p.node_id && p.node_label) {
    const prefix = `“${p.node_label}”`;
    if (short.startsWith(`${prefix} · `)) short = short.slice(prefix.length + 3);
    else if (short.startsWith(`${prefix} `)) short = short.slice(prefix.length + 1);
  }
  const node = nodes.find((n) => n.id === p.node_id);
  const label = node && key && fieldLabelOf(node.type, key);
  if (label && p.field_label && short.startsWith(p.field_label)) {
    short = label + short.slice(p.field_label.length);
  }
  if (!key && short.startsWith('is ')) short = short.slice(3); // "is not reachable from …"
  short = short.charAt(0).toUpperCase() + short.slice(1);
  return { nodeId: p.node_id || null, edgeId: p.edge_id || null, key, text: p.text || p.message, short };
}

/** A field error of a 400 or 422 answer ("nodes.<id>.data.config.url") in the same shape. */
export function fromFieldError(e, nodes) {
  const m = /^(nodes|edges)\.([^.]+)(?:\.(.*))?$/.exec(e.field || '');
  if (!m) {
    return { nodeId: null, edgeId: null, key: null, text: e.field && e.field !== 'canvas' ? `${e.field}: ${e.message}` : e.message, short: e.message };
  }
  if (m[1] === 'edges') {
    return { nodeId: null, edgeId: m[2], key: null, text: `A connection: ${e.message}`, short: e.message };
  }
  const node = nodes.find((n) => n.id === m[2]);
  const key = configKey(m[3]);
  const label = (node && key && fieldLabelOf(node.type, key)) || key;
  const short = label ? `${label}: ${e.message}` : e.message;
  const name = node ? `“${node.data.label || NODE_TYPES[node.type]?.label}”` : m[2];
  return { nodeId: m[2], edgeId: null, key, text: `${name} · ${short}`, short };
}

/** {byNode: {id: [problem]}, general: [problem]}. */
export function grouped(list) {
  const byNode = {};
  const general = [];
  for (const p of list) {
    if (p.nodeId) (byNode[p.nodeId] ||= []).push(p);
    else general.push(p);
  }
  return { byNode, general };
}
