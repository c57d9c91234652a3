// What a node can read in its templates, for the variable picker: the trigger's payload, the
// contact's fields (the tenant's custom fields by their labels) and the outputs of the nodes
// before it, each with a sample value where one is known.
import { CONTACT_FIELDS, NODE_TYPES, nodeName } from './nodeTypes.js';
import { outputNamesBefore } from './graph.js';

const MAX_DEPTH = 3;
const MAX_PER_SOURCE = 60;

/** A value as the picker shows it beside a variable: short, on one line. */
export function sampleText(value) {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** Every path of an object's fields, nested ones included: [{path, sample}]. */
export function fieldPaths(value, prefix, depth = 0) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const out = [];
  for (const [key, v] of Object.entries(value)) {
    const path = `${prefix}.${key}`;
    if (v && typeof v === 'object' && !Array.isArray(v) && depth + 1 < MAX_DEPTH && Object.keys(v).length) {
      out.push(...fieldPaths(v, path, depth + 1));
    } else {
      out.push({ path, sample: v });
    }
  }
  return out.slice(0, MAX_PER_SOURCE);
}

/** The keys a described output field stands for: "{mappings}" is each key of that config object. */
function describedKeys(field, config) {
  const m = /^\{(.+)\}$/.exec(field.key);
  if (!m) return [{ key: field.key, description: field.description }];
  const object = config?.[m[1]];
  if (!object || typeof object !== 'object' || Array.isArray(object)) return [];
  return Object.keys(object).map((key) => ({ key, description: field.description }));
}

/**
 * The variables a node can read, in groups: [{label, items: [{path, label, sample}]}].
 *
 * @param sample the trigger payload to show (the last run's, or a test event's), or null
 * @param customFields the tenant's custom fields of contacts ({field_key, field_label}), or null
 * @param runOutputs the last run's output of each node, by node id, or null
 */
export function variableGroups(nodeId, nodes, edges, { sample, customFields, runOutputs } = {}) {
  const groups = [];
  const trigger = fieldPaths(sample, 'trigger').map(({ path, sample: v }) => ({
    path,
    label: path.slice('trigger.'.length),
    sample: sampleText(v),
  }));
  groups.push({
    label: sample ? 'Trigger (sample from the last run or test event)' : 'Trigger (no sample yet: send a test event)',
    items: trigger.length ? trigger : [{ path: 'trigger', label: 'the whole payload' }],
  });
  groups.push({
    label: 'Contact',
    items: CONTACT_FIELDS.filter((f) => f.key !== 'custom_fields').map((f) => ({
      path: `contact.${f.key}`,
      label: f.label,
    })),
  });
  if (customFields?.length) {
    groups.push({
      label: 'Contact: custom fields',
      items: customFields.map((f) => ({
        path: `contact.custom_fields.${f.field_key}`,
        label: f.field_label || f.field_key,
      })),
    });
  }
  for (const { node, name } of outputNamesBefore(nodeId, nodes, edges)) {
    const spec = NODE_TYPES[node.type];
    const seen = new Map();
    for (const field of spec?.outputFields || []) {
      for (const { key, description } of describedKeys(field, node.data?.config)) {
        seen.set(key, { path: `${name}.${key}`, label: key, hint: description });
      }
    }
    for (const { path, sample: v } of fieldPaths(runOutputs?.[node.id], name)) {
      const key = path.slice(name.length + 1);
      const top = key.split('.')[0];
      const known = seen.get(key) || seen.get(top);
      if (seen.has(key)) seen.set(key, { ...seen.get(key), sample: sampleText(v) });
      else seen.set(key, { path, label: key, hint: known?.hint, sample: sampleText(v) });
    }
    groups.push({
      label: `${nodeName(node)} · ${name}`,
      items: seen.size ? [...seen.values()] : [{ path: name, label: 'its whole output' }],
    });
  }
  return groups;
}
