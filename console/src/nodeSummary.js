// The key settings of a node, in a line for its card on the canvas, as its type's descriptor
// names them (GET /api/v1/node-types: summary {lead, fields, separator}).
import { NODE_TYPES } from './nodeTypes.js';

const DAY_NAMES = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** "Mon–Fri", "Mon, Wed, Fri": days 1 (Monday) to 7 (Sunday). */
function dayRange(days) {
  const sorted = [...new Set(days)].filter((d) => d >= 1 && d <= 7).sort((a, b) => a - b);
  if (!sorted.length) return '';
  if (sorted.length === 7) return 'every day';
  const runs = [];
  for (const d of sorted) {
    const last = runs[runs.length - 1];
    if (last && d === last[1] + 1) last[1] = d;
    else runs.push([d, d]);
  }
  return runs
    .map(([a, b]) => (a === b ? DAY_NAMES[a] : b === a + 1 ? `${DAY_NAMES[a]}, ${DAY_NAMES[b]}` : `${DAY_NAMES[a]}–${DAY_NAMES[b]}`))
    .join(', ');
}

/**
 * A send window in words, its zone beside it: "Mon–Fri 09:00–17:00, the contact’s time zone";
 * empty for no window.
 */
export function windowText(window) {
  if (!window || typeof window !== 'object' || !Object.keys(window).length) return '';
  const days = Array.isArray(window.days) ? dayRange(window.days) : '';
  const hours = window.from || window.to ? `${window.from || '00:00'}–${window.to || '24:00'}` : '';
  const zone =
    !window.timezone || window.timezone === 'contact'
      ? 'the contact’s time zone'
      : `${window.timezone} time`;
  return `${[days, hours].filter(Boolean).join(' ') || 'any time'}, ${zone}`;
}

/** An object in a line, "key value · key value", when its values are short; else its keys. */
function objectLine(value) {
  const entries = Object.entries(value);
  const simple = entries.every(([, v]) => v === null || typeof v !== 'object' || (Array.isArray(v) && v.every((x) => typeof x !== 'object')));
  if (!simple) return entries.map(([k]) => k).join(', ');
  return entries.map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(',') : v}`).join(' · ');
}

/**
 * A field's value as a card shows it, by the field's kind; empty when it is not set.
 *
 * @param names what ids stand for: {templates: {id: name}}
 */
function shown(field, value, names) {
  if (value === undefined || value === null || value === '') return '';
  switch (field.kind) {
    case 'email_template':
      return names?.templates?.[value] ? `template “${names.templates[value]}”` : 'a template';
    case 'window':
      return windowText(value);
    case 'number':
      if (!field.unit) return String(value);
      if (!value) return '';
      return `${value} ${value === 1 ? field.unit.replace(/s$/, '') : field.unit}`;
    case 'secret':
      return 'with a secret';
    case 'key_value':
      return typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).join(', ') : '';
    case 'json':
      return typeof value === 'object' && !Array.isArray(value) ? objectLine(value) : '';
    case 'select':
      return String(value).replace(/_/g, ' ');
    case 'days':
      return Array.isArray(value) ? value.join(',') : String(value);
    default:
      if (Array.isArray(value)) return value.join(',');
      return typeof value === 'object' ? objectLine(value) : String(value);
  }
}

/** A type whose descriptor names no summary fields: its first two text values. */
function firstValues(config) {
  return Object.values(config)
    .filter((v) => typeof v === 'string' && v)
    .slice(0, 2)
    .join(' · ');
}

/** "Wait 2 days", "Welcome!", "POST https://…": empty when nothing is set yet. */
export function nodeSummary(type, config, names) {
  const spec = NODE_TYPES[type]?.summary;
  const values = config || {};
  let summary;
  if (spec) {
    const parts = spec.fields.map((f) => shown(f, values[f.key], names)).filter(Boolean);
    summary = parts.length ? [spec.lead, parts.join(spec.separator)].filter(Boolean).join(' ') : '';
  } else {
    summary = firstValues(values);
  }
  return summary.length > 60 ? `${summary.slice(0, 59)}…` : summary;
}
