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
 * Every node type the API knows (GET /api/v1/node-types), by name: {label, trigger, outputs,
 * outputsFrom, outputFields, group, icon, description, step, summary, fields}. Filled by
 * loadNodeTypes before a canvas is shown; the palette, the handles and the config forms are drawn
 * from it, one form control per field kind.
 */
export const NODE_TYPES = {};

/** The run's contact's fields as templates read them ({key, label}), from the same answer. */
export const CONTACT_FIELDS = [];

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

/** Puts an answer of GET /api/v1/node-types into NODE_TYPES and CONTACT_FIELDS. */
export function useNodeTypes(answer) {
  for (const key of Object.keys(NODE_TYPES)) delete NODE_TYPES[key];
  for (const t of answer.node_types) {
    NODE_TYPES[t.type] = {
      label: t.label,
      trigger: t.trigger,
      outputs: t.outputs || [],
      outputsFrom: t.outputs_from || null,
      outputFields: t.output_fields || [],
      group: t.group,
      icon: t.icon,
      description: t.description,
      step: t.step,
      summary: cardSummary(t),
      // fields the service sets (a webhook's path) are not the author's to edit
      fields: t.fields.filter((f) => !f.read_only).map(formField),
    };
  }
  CONTACT_FIELDS.splice(0, CONTACT_FIELDS.length, ...(answer.contact_fields || []));
  loaded.splice(0).forEach((callback) => callback());
  return NODE_TYPES;
}

/** Reads the node types from the API into NODE_TYPES. */
export async function loadNodeTypes() {
  if (Object.keys(NODE_TYPES).length) return NODE_TYPES;
  return useNodeTypes(await get('/api/v1/node-types'));
}

/**
 * The outcomes of a node, one per outgoing edge label: its type's outputs (a condition's true and
 * false), or, for a type whose outputs are its own (a split), the labels of the entries of the
 * config field its descriptor names. Empty: one unlabelled output.
 */
export function outcomesOf(node) {
  const spec = NODE_TYPES[node?.type];
  if (!spec) return [];
  if (spec.outputsFrom) {
    const entries = node.data?.config?.[spec.outputsFrom];
    if (!Array.isArray(entries)) return [];
    const labels = entries.map((e) => (e && typeof e === 'object' ? e.label : e)).filter((l) => typeof l === 'string' && l.trim());
    return [...new Set(labels)];
  }
  return spec.outputs;
}

/** Whether a node's outgoing edges are labelled with its outcomes. */
export function branches(node) {
  const spec = NODE_TYPES[node?.type];
  return !!spec && (spec.outputs.length > 0 || !!spec.outputsFrom);
}

/** "Email “Welcome mail”": how a node is named to a person (its label, else its type's). */
export function nodeName(node) {
  const type = NODE_TYPES[node?.type]?.label || node?.type || 'node';
  const label = node?.data?.label;
  return label && label !== type ? `${type} “${label}”` : type;
}
