// What replacing one canvas by another changes, for the confirmation shown before it happens.

function nodeName(n) {
  return `${n.data?.label || n.type} (${n.type})`;
}

/** {added, removed, changed: [text], edgesAdded, edgesRemoved} between two API canvases. */
export function canvasDiff(before, after) {
  const was = new Map(before.nodes.map((n) => [n.id, n]));
  const is = new Map(after.nodes.map((n) => [n.id, n]));
  const added = after.nodes.filter((n) => !was.has(n.id)).map(nodeName);
  const removed = before.nodes.filter((n) => !is.has(n.id)).map(nodeName);
  const changed = [];
  for (const n of after.nodes) {
    const old = was.get(n.id);
    if (!old) continue;
    const what = [];
    if (old.type !== n.type) what.push('type');
    if ((old.data?.label || '') !== (n.data?.label || '')) what.push(`label “${old.data?.label}” → “${n.data?.label}”`);
    const keys = new Set([...Object.keys(old.data?.config || {}), ...Object.keys(n.data?.config || {})]);
    for (const k of keys) {
      const was = JSON.stringify(old.data?.config?.[k]);
      const is = JSON.stringify(n.data?.config?.[k]);
      if (was === is) continue;
      // short values are shown as they change; long ones only by their name
      what.push((was || '').length + (is || '').length <= 90 ? `${k} ${was ?? '(none)'} → ${is ?? '(none)'}` : k);
    }
    if (what.length) changed.push(`${nodeName(n)}: ${what.join(', ')}`);
  }
  const edgeKey = (e) => `${e.source}>${e.target}#${e.label || ''}`;
  const edgesBefore = new Set(before.edges.map(edgeKey));
  const edgesAfter = new Set(after.edges.map(edgeKey));
  return {
    added,
    removed,
    changed,
    edgesAdded: [...edgesAfter].filter((k) => !edgesBefore.has(k)).length,
    edgesRemoved: [...edgesBefore].filter((k) => !edgesAfter.has(k)).length,
  };
}
