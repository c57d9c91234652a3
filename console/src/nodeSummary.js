// The key settings of a node, in a line for its card on the canvas, as its type's descriptor
// names them (GET /api/v1/node-types: summary {lead, fields, separator}).
import { NODE_TYPES } from './nodeTypes.js';

/** A field's value as a card shows it, by the field's kind; empty when it is not set. */
function shown(field, value) {
  if (value === undefined || value === null || value === '') return '';
  switch (field.kind) {
    case 'number':
      if (!field.unit) return String(value);
      if (!value) return '';
      return `${value} ${value === 1 ? field.unit.replace(/s$/, '') : field.unit}`;
    case 'secret':
      return 'with a secret';
    case 'key_value':
    case 'json':
      return typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).join(', ') : '';
    case 'select':
      return String(value).replace(/_/g, ' ');
    case 'days':
      return Array.isArray(value) ? value.join(',') : String(value);
    default:
      return typeof value === 'object' ? '' : String(value);
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
export function nodeSummary(type, config) {
  const spec = NODE_TYPES[type]?.summary;
  const values = config || {};
  let summary;
  if (spec) {
    const parts = spec.fields.map((f) => shown(f, values[f.key])).filter(Boolean);
    summary = parts.length ? [spec.lead, parts.join(spec.separator)].filter(Boolean).join(' ') : '';
  } else {
    summary = firstValues(values);
  }
  return summary.length > 60 ? `${summary.slice(0, 59)}…` : summary;
}
