// The key settings of a node, in a line for its card on the canvas.

function days(config) {
  const parts = [];
  if (config.delayDays) parts.push(`${config.delayDays} day${config.delayDays === 1 ? '' : 's'}`);
  if (config.delayHours) parts.push(`${config.delayHours} hour${config.delayHours === 1 ? '' : 's'}`);
  return parts.length ? `Wait ${parts.join(' ')}` : '';
}

const SUMMARIES = {
  webhook_trigger: (c) => (c.secretToken ? 'POST, with a secret' : 'POST'),
  schedule_trigger: (c) =>
    c.scheduleType === 'custom'
      ? `cron ${c.customCron || '?'}`
      : [c.scheduleType, c.time, c.timezone].filter(Boolean).join(' · '),
  crm_event_trigger: (c) =>
    [c.eventType, c.filterField && `${c.filterField} = ${c.filterValue ?? ''}`].filter(Boolean).join(' · '),
  http_request: (c) => [c.method, c.url].filter(Boolean).join(' '),
  email: (c) => (c.subject ? `“${c.subject}”` : c.templateId ? `template ${c.templateId}` : ''),
  delay: days,
  condition: (c) => [c.field, c.operator?.replace(/_/g, ' '), c.value].filter(Boolean).join(' '),
  chat_message: (c) => [c.channel, c.messageTemplate].filter(Boolean).join(': '),
  crm_update: (c) =>
    c.entityType
      ? `${c.entityType} ← ${Object.keys(c.fieldMappings || {}).join(', ') || '…'}`
      : '',
  create_record: (c) =>
    c.entityType ? `new ${c.entityType} (${Object.keys(c.fieldMappings || {}).join(', ') || '…'})` : '',
  data_transform: (c) => c.transformType || '',
};

/** A type without a summary of its own: its first two text values. */
function firstValues(config) {
  return Object.values(config)
    .filter((v) => typeof v === 'string' && v)
    .slice(0, 2)
    .join(' · ');
}

/** "Wait 2 days", "“Welcome!”", "POST https://…": empty when nothing is set yet. */
export function nodeSummary(type, config) {
  const summary = (SUMMARIES[type] || firstValues)(config || {}) || '';
  return summary.length > 60 ? `${summary.slice(0, 59)}…` : summary;
}
