// Every node type of the canvas, with the form of its config, as the API serves them (GET
// /api/v1/node-types); the API stays the judge: its 400 and 422 answers show on the fields they name.
import { get } from './api.js';

export const TIMEZONES = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC', 'Europe/Berlin', 'America/New_York'];
  }
})();

/**
 * Every node type the API knows (GET /api/v1/node-types), by name: {label, trigger, branches,
 * group, icon, description, step, summary, fields}. Filled by loadNodeTypes before a canvas is shown; the
 * palette and the config forms are drawn from it, one form control per field kind.
 */
export const NODE_TYPES = {};

const loaded = [];

/** Runs once the node types are in NODE_TYPES (at once when they are). */
export function onNodeTypesLoaded(callback) {
  if (Object.keys(NODE_TYPES).length) callback();
  else loaded.push(callback);
}

/** A field of the API's answer as the forms read it (snake_case to the form's names). */
function formField(f) {
  return {
    key: f.key,
    label: f.label,
    kind: f.kind,
    required: f.required,
    options: f.options || [],
    min: f.min,
    max: f.max,
    maxLength: f.max_length,
    multiline: f.multiline,
    template: f.template,
    secret: f.secret,
    // the service's rule for which entries of a credential_entries field are secret
    secretEntries: f.secret_entries ? new RegExp(f.secret_entries) : null,
    unit: f.unit,
    help: f.help,
  };
}

/** A type's card line as the API describes it: {lead, separator, fields}, or null. */
function cardSummary(t) {
  if (!t.summary) return null;
  const fields = t.summary.fields
    .map((key) => t.fields.find((f) => f.key === key))
    .filter(Boolean)
    .map(formField);
  return { lead: t.summary.lead, separator: t.summary.separator, fields };
}

/** Reads the node types from the API into NODE_TYPES. */
export async function loadNodeTypes() {
  if (Object.keys(NODE_TYPES).length) return NODE_TYPES;
  const answer = await get('/api/v1/node-types');
  for (const t of answer.node_types) {
    NODE_TYPES[t.type] = {
      label: t.label,
      trigger: t.trigger,
      branches: t.outputs.length > 0,
      outputs: t.outputs,
      group: t.group,
      icon: t.icon,
      description: t.description,
      step: t.step,
      summary: cardSummary(t),
      // fields the service sets (a webhook's path) are not the author's to edit
      fields: t.fields.filter((f) => !f.read_only).map(formField),
    };
  }
  loaded.splice(0).forEach((callback) => callback());
  return NODE_TYPES;
}

/** The template variables a node can read: trigger, contact and earlier nodes' outputs. */
export function variablesBefore(nodeId, nodes, edges) {
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
  const counts = {};
  const out = ['{{trigger.}}', '{{contact.email}}', '{{contact.first_name}}'];
  for (const n of nodes) {
    if (!before.has(n.id) || NODE_TYPES[n.type]?.trigger) continue;
    counts[n.type] = (counts[n.type] || 0) + 1;
  }
  for (const [type, count] of Object.entries(counts)) {
    for (let i = 1; i <= count; i++) out.push(`{{${type}_${i}.}}`);
  }
  return out;
}
