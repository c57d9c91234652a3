// A GET /api/v1/node-types answer as the service serves it, cut to the types the tests use; "split"
// stands for a type whose outcomes are its own (outputs_from).
export const NODE_TYPES_ANSWER = {
  contact_fields: [
    { key: 'contact_id', label: 'Contact ID' },
    { key: 'email', label: 'Email' },
    { key: 'first_name', label: 'First name' },
    { key: 'lifecycle_stage', label: 'Lifecycle stage' },
    { key: 'custom_fields', label: 'Custom fields' },
  ],
  node_types: [
    { type: 'webhook_trigger', trigger: true, label: 'Webhook trigger', group: 'triggers', outputs: [], output_fields: [], fields: [], summary: null },
    {
      type: 'condition',
      trigger: false,
      label: 'Condition',
      group: 'logic',
      outputs: ['true', 'false'],
      output_fields: [
        { key: 'result', description: 'true or false: the branch taken' },
        { key: 'value', description: 'the field’s value as compared' },
      ],
      fields: [
        { key: 'field', label: 'Field', kind: 'template', required: true, template: true },
        { key: 'operator', label: 'Operator', kind: 'select', required: true, options: ['equals', 'is_empty'] },
        { key: 'value', label: 'Value', kind: 'template', template: true },
      ],
      summary: { lead: null, fields: ['field', 'operator', 'value'], separator: ' ' },
    },
    {
      type: 'split',
      trigger: false,
      label: 'Split',
      group: 'logic',
      outputs: [],
      outputs_from: 'branches',
      output_fields: [{ key: 'branch', description: 'the branch taken' }],
      fields: [{ key: 'branches', label: 'Branches', kind: 'json', required: true }],
      summary: null,
    },
    {
      type: 'email',
      trigger: false,
      label: 'Email',
      group: 'actions',
      outputs: [],
      output_fields: [{ key: 'messageId', description: 'the sent message’s id' }],
      fields: [
        { key: 'subject', label: 'Subject', kind: 'template', template: true },
        { key: 'templateId', label: 'Email template', kind: 'email_template' },
        { key: 'window', label: 'Send window', kind: 'window' },
      ],
      summary: { lead: null, fields: ['subject', 'templateId'], separator: ' · ' },
    },
    {
      type: 'http_request',
      trigger: false,
      label: 'HTTP request',
      group: 'actions',
      outputs: [],
      output_fields: [
        { key: 'statusCode', description: 'the answer’s HTTP status' },
        { key: 'body', description: 'the answer’s body' },
      ],
      fields: [
        { key: 'method', label: 'Method', kind: 'select', required: true, options: ['GET', 'POST'] },
        { key: 'url', label: 'URL', kind: 'template', required: true, template: true },
      ],
      summary: { lead: null, fields: ['method', 'url'], separator: ' ' },
    },
    {
      type: 'delay',
      trigger: false,
      label: 'Delay',
      group: 'logic',
      outputs: [],
      output_fields: [{ key: 'waitedSeconds', description: 'how long it waited' }],
      fields: [
        { key: 'delayDays', label: 'Days', kind: 'number', unit: 'days', min: 0, max: 3650 },
        { key: 'delayMinutes', label: 'Minutes', kind: 'number', unit: 'minutes', min: 0 },
      ],
      summary: { lead: 'Wait', fields: ['delayDays', 'delayMinutes'], separator: ' ' },
    },
    {
      type: 'data_transform',
      trigger: false,
      label: 'Data transform',
      group: 'data',
      outputs: [],
      output_fields: [
        { key: '{mappings}', description: 'map: each key of the mappings' },
        { key: 'count', description: 'filter: how many were kept' },
      ],
      fields: [{ key: 'mappings', label: 'Mappings', kind: 'json', required: true }],
      summary: null,
    },
  ],
};

/** A node as the editor holds it. */
export function node(id, type, config = {}, label = id, position = { x: 0, y: 0 }) {
  return { id, type, position, data: { label, config } };
}

/** Answers fetch calls by method and path from a table: {'GET /api/...': body or (init) => body}. */
export function fakeFetch(routes) {
  const calls = [];
  const fetch = async (url, init = {}) => {
    const method = init.method || 'GET';
    const path = String(url);
    calls.push({ method, path, body: init.body });
    const key = Object.keys(routes).find((k) => {
      const [m, p] = k.split(' ');
      return m === method && (path === p || path.startsWith(`${p}?`) || (p.endsWith('*') && path.startsWith(p.slice(0, -1))));
    });
    if (!key) return new Response(JSON.stringify({ detail: `no route for ${method} ${path}` }), { status: 404 });
    const answer = typeof routes[key] === 'function' ? routes[key](init, path) : routes[key];
    const status = answer?.status ?? 200;
    return new Response(JSON.stringify(answer?.body ?? answer), { status });
  };
  fetch.calls = calls;
  return fetch;
}
