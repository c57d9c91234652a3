// Every node type of the canvas, with the form of its config. Mirrors the API's rules (docs/
// automations.md); the API stays the judge: its 400 and 422 answers show on the fields they name.

export const TIMEZONES = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC', 'Europe/Berlin', 'America/New_York'];
  }
})();

const EVENTS = [
  'contact.created', 'contact.updated', 'opportunity.created', 'opportunity.updated',
  'opportunity.stage_changed', 'meeting.booked', 'meeting.cancelled', 'meeting.no_show',
  'sequence.enrolled', 'sequence.completed', 'sequence.unenrolled', 'conversation.created',
  'conversation.override', 'call.completed', 'call.quality_scored',
];

const OPERATORS = [
  'equals', 'not_equals', 'contains', 'not_contains', 'greater_than', 'less_than', 'is_empty',
  'is_not_empty',
];

export const NODE_TYPES = {
  webhook_trigger: {
    label: 'Webhook trigger',
    trigger: true,
    fields: [{ key: 'secretToken', label: 'Secret token (X-Webhook-Secret)', kind: 'secret' }],
  },
  schedule_trigger: {
    label: 'Schedule trigger',
    trigger: true,
    fields: [
      { key: 'scheduleType', label: 'Schedule', kind: 'select', options: ['daily', 'weekly', 'monthly', 'custom'], required: true },
      { key: 'time', label: 'Time (HH:mm)', kind: 'time', required: true },
      { key: 'timezone', label: 'Time zone', kind: 'timezone', required: true },
      { key: 'daysOfWeek', label: 'Days of the week', kind: 'days' },
      { key: 'dayOfMonth', label: 'Day of the month', kind: 'number' },
      { key: 'customCron', label: 'Cron (minute hour day month weekday)', kind: 'cron' },
    ],
  },
  crm_event_trigger: {
    label: 'CRM event trigger',
    trigger: true,
    fields: [
      { key: 'eventType', label: 'Event', kind: 'select', options: EVENTS, required: true },
      { key: 'filterField', label: 'Filter field', kind: 'text' },
      { key: 'filterValue', label: 'Filter value', kind: 'text' },
    ],
  },
  http_request: {
    label: 'HTTP request',
    fields: [
      { key: 'method', label: 'Method', kind: 'select', options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], required: true },
      { key: 'url', label: 'URL', kind: 'template', required: true },
      { key: 'headers', label: 'Headers (JSON object)', kind: 'json' },
      { key: 'bodyTemplate', label: 'Body template', kind: 'template', multiline: true },
      { key: 'timeoutSeconds', label: 'Timeout (seconds)', kind: 'number' },
    ],
  },
  email: {
    label: 'Email',
    fields: [
      { key: 'subject', label: 'Subject', kind: 'template' },
      { key: 'body', label: 'Body', kind: 'template', multiline: true },
      { key: 'templateId', label: 'Template id', kind: 'text' },
      { key: 'to', label: 'To (default: the run’s contact)', kind: 'template' },
    ],
  },
  delay: {
    label: 'Delay',
    fields: [
      { key: 'delayDays', label: 'Days', kind: 'number' },
      { key: 'delayHours', label: 'Hours', kind: 'number' },
    ],
  },
  condition: {
    label: 'Condition',
    branches: true,
    fields: [
      { key: 'field', label: 'Field', kind: 'template', required: true },
      { key: 'operator', label: 'Operator', kind: 'select', options: OPERATORS, required: true },
      { key: 'value', label: 'Value', kind: 'template' },
    ],
  },
  chat_message: {
    label: 'Chat message',
    fields: [
      { key: 'channel', label: 'Channel', kind: 'text', required: true },
      { key: 'messageTemplate', label: 'Message', kind: 'template', multiline: true, required: true },
    ],
  },
  crm_update: {
    label: 'CRM update',
    fields: [
      { key: 'entityType', label: 'Record', kind: 'select', options: ['contact', 'opportunity', 'account'], required: true },
      { key: 'fieldMappings', label: 'Field mappings (JSON object)', kind: 'json', required: true },
      { key: 'recordId', label: 'Record id', kind: 'template' },
    ],
  },
  create_record: {
    label: 'Create record',
    fields: [
      { key: 'entityType', label: 'Record', kind: 'select', options: ['contact', 'opportunity', 'account', 'note', 'task'], required: true },
      { key: 'fieldMappings', label: 'Field mappings (JSON object)', kind: 'json', required: true },
    ],
  },
  data_transform: {
    label: 'Data transform',
    fields: [
      { key: 'transformType', label: 'Transform', kind: 'select', options: ['map', 'filter', 'merge'], required: true },
      { key: 'mappings', label: 'Mappings (JSON object)', kind: 'json', required: true },
    ],
  },
};

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
