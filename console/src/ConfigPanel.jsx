import { useEffect, useRef, useState } from 'react';
import { call, get, Problem } from './api.js';
import { NODE_TYPES, TIMEZONES, outcomesOf } from './nodeTypes.js';
import { variableGroups } from './variables.js';
import { windowText } from './nodeSummary.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const CRON_PRESETS = [
  ['0 * * * *', 'every hour'],
  ['0 9 * * 1-5', 'weekdays at 09:00'],
  ['30 8 * * 1', 'Mondays at 08:30'],
  ['0 0 1 * *', 'the first of the month at midnight'],
  ['*/15 * * * *', 'every 15 minutes'],
];

/**
 * One config field, as the form control of its kind (text, template, number, select, secret,
 * key_value, json, boolean, time, timezone, days, cron): the forms are per kind, never per node
 * type, so a node type the API serves is drawn from its fields alone.
 */
function Field({ field, value, onChange, problem, variables, templates }) {
  const id = `config-${field.key}`;
  const input = useRef(null);
  let control;
  // a value of a shape this form has no control for (an object) is edited as JSON
  const kind = value && typeof value === 'object' && !Array.isArray(value) && !OBJECT_KINDS.includes(field.kind) ? 'json' : field.kind;
  switch (kind) {
    case 'select':
      control = (
        <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
          <option value="">—</option>
          {field.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
      break;
    case 'timezone':
      control = (
        <>
          <input id={id} list="timezones" value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)} />
          <datalist id="timezones">
            {TIMEZONES.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </>
      );
      break;
    case 'time':
      control = <input id={id} type="time" value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)} />;
      break;
    case 'number':
      control = (
        <input
          id={id}
          type="number"
          min={field.min ?? undefined}
          max={field.max ?? undefined}
          step="any"
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
        />
      );
      break;
    case 'days':
      control = (
        <div id={id} role="group" aria-label={field.label} className="days">
          {DAYS.map((d, i) => (
            <label key={d}>
              <input
                type="checkbox"
                checked={(value || []).includes(i)}
                onChange={(e) => {
                  const set = new Set(value || []);
                  if (e.target.checked) set.add(i);
                  else set.delete(i);
                  onChange(set.size ? [...set].sort() : undefined);
                }}
              />
              {d}
            </label>
          ))}
        </div>
      );
      break;
    case 'json':
      return <JsonField id={id} field={field} value={value} onChange={onChange} problem={problem} />;
    case 'window':
      return <WindowField id={id} field={field} value={value} onChange={onChange} problem={problem} />;
    case 'email_template':
      control = (
        <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
          <option value="">—</option>
          {value && !templates?.some((t) => t.id === value) && <option value={value}>{templates ? 'a template not found' : value}</option>}
          {(templates || []).map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} · {t.subject}
            </option>
          ))}
        </select>
      );
      break;
    case 'key_value':
      return <KeyValueField id={id} field={field} value={value} onChange={onChange} problem={problem} />;
    case 'boolean':
      control = (
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked || undefined)}
        />
      );
      break;
    case 'cron':
      control = (
        <>
          <input id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)} placeholder="minute hour day month weekday" />
          <select aria-label="Cron presets" value="" onChange={(e) => e.target.value && onChange(e.target.value)}>
            <option value="">presets…</option>
            {CRON_PRESETS.map(([cron, label]) => (
              <option key={cron} value={cron}>
                {label} ({cron})
              </option>
            ))}
          </select>
        </>
      );
      break;
    case 'secret':
      control = (
        <input
          id={id}
          type="password"
          autoComplete="off"
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value || undefined)}
        />
      );
      break;
    default:
      control = field.multiline ? (
        <textarea
          id={id}
          ref={input}
          rows={4}
          maxLength={field.maxLength ?? undefined}
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value || undefined)}
        />
      ) : (
        <input
          id={id}
          ref={input}
          maxLength={field.maxLength ?? undefined}
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value || undefined)}
        />
      );
  }
  return (
    <div className={`field ${problem ? 'invalid' : ''}`}>
      <label htmlFor={id}>
        {field.label}
        {field.required ? ' *' : ''}
      </label>
      {control}
      <Help field={field} />
      {field.kind === 'template' && (
        <VariablePicker
          label={field.label}
          groups={variables}
          onPick={(path) => onChange(insertAt(input.current, value ?? '', `{{${path}}}`))}
        />
      )}
      {problem && (
        <p className="field-problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** Kinds whose value is an object or list by design. */
const OBJECT_KINDS = ['json', 'key_value', 'window', 'days'];

/**
 * The text with a variable put where the caret was in the field (at the end when it never had
 * focus), the caret left after it.
 */
export function insertAt(element, text, token) {
  const start = element && element.selectionStart != null && document.activeElement !== null ? element.selectionStart : text.length;
  const end = element && element.selectionEnd != null ? element.selectionEnd : start;
  const at = Math.min(start, text.length);
  const next = text.slice(0, at) + token + text.slice(Math.max(at, Math.min(end, text.length)));
  if (element) {
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(at + token.length, at + token.length);
    });
  }
  return next;
}

/**
 * The variables a field can take, by where they come from (the trigger's sample, the contact and
 * its custom fields, each earlier node's output): picking one puts it at the caret.
 */
export function VariablePicker({ label, groups, onPick }) {
  return (
    <select
      className="variable-picker"
      aria-label={`Insert a variable into ${label}`}
      value=""
      onChange={(e) => e.target.value && onPick(e.target.value)}
    >
      <option value="">insert a variable…</option>
      {groups.map((g) => (
        <optgroup key={g.label} label={g.label}>
          {g.items.map((v) => (
            <option key={v.path} value={v.path} title={v.hint}>
              {v.label}
              {v.sample !== undefined ? ` = ${v.sample}` : ''} — {`{{${v.path}}}`}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}

const WEEKDAYS = [
  [1, 'Mon'],
  [2, 'Tue'],
  [3, 'Wed'],
  [4, 'Thu'],
  [5, 'Fri'],
  [6, 'Sat'],
  [7, 'Sun'],
];

/**
 * A send window {days (1 = Monday .. 7 = Sunday), from, to, timezone}: the days, the hours and the
 * zone they are in, with the window said in words beside them.
 */
function WindowField({ id, field, value, onChange, problem }) {
  const window = value && typeof value === 'object' ? value : {};
  const set = (key, v) => {
    const next = { ...window, [key]: v };
    if (v === undefined || v === '' || (Array.isArray(v) && !v.length)) delete next[key];
    onChange(Object.keys(next).length ? next : undefined);
  };
  return (
    <div className={`field ${problem ? 'invalid' : ''}`}>
      <span className="field-label" id={`${id}-label`}>
        {field.label}
        {field.required ? ' *' : ''}
      </span>
      <div id={id} role="group" aria-labelledby={`${id}-label`} className="window">
        <div className="days">
          {WEEKDAYS.map(([n, d]) => (
            <label key={n}>
              <input
                type="checkbox"
                checked={(window.days || []).includes(n)}
                onChange={(e) => {
                  const days = new Set(window.days || []);
                  if (e.target.checked) days.add(n);
                  else days.delete(n);
                  set('days', [...days].sort((a, b) => a - b));
                }}
              />
              {d}
            </label>
          ))}
        </div>
        <div className="window-hours">
          <label>
            from <input type="time" aria-label={`${field.label}: from`} value={window.from ?? ''} onChange={(e) => set('from', e.target.value)} />
          </label>
          <label>
            to <input type="time" aria-label={`${field.label}: to`} value={window.to ?? ''} onChange={(e) => set('to', e.target.value)} />
          </label>
        </div>
        <label className="window-zone">
          time zone{' '}
          <input
            list="window-zones"
            aria-label={`${field.label}: time zone`}
            value={window.timezone ?? ''}
            placeholder="contact"
            onChange={(e) => set('timezone', e.target.value)}
          />
          <datalist id="window-zones">
            <option value="contact">the contact’s own</option>
            {TIMEZONES.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </label>
        <p className="window-text" aria-live="polite">
          {windowText(window) || 'No window: any day, any time.'}
        </p>
      </div>
      <Help field={field} />
      {problem && (
        <p className="field-problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** The field's help sentence, under its control. */
function Help({ field }) {
  return field.help ? (
    <p className="field-help" id={`config-${field.key}-help`}>
      {field.help}
    </p>
  ) : null;
}

/**
 * An object of strings (headers): one row of name and value each, a row more to add one. Values of
 * credential names are typed as passwords when the field's entries are secret.
 */
function KeyValueField({ id, field, value, onChange, problem }) {
  const [rows, setRows] = useState(() => Object.entries(value || {}));
  // the service's own rule (GET /api/v1/node-types), applied to the name as sent (trimmed):
  // the entries it seals are typed as passwords
  const secretName = (name) => Boolean(field.secretEntries?.test(name.trim().toLowerCase()));
  function change(next) {
    setRows(next);
    const object = {};
    for (const [name, v] of next) if (name.trim()) object[name.trim()] = v;
    onChange(Object.keys(object).length ? object : undefined);
  }
  return (
    <div className={`field ${problem ? 'invalid' : ''}`}>
      <label htmlFor={id}>
        {field.label}
        {field.required ? ' *' : ''}
      </label>
      <div id={id} role="group" aria-label={field.label} className="key-value">
        {rows.map(([name, v], i) => (
          // eslint-disable-next-line react/no-array-index-key
          <div key={i} className="key-value-row">
            <input
              aria-label={`${field.label}: name ${i + 1}`}
              value={name}
              placeholder="name"
              onChange={(e) => change(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))}
            />
            <input
              aria-label={`${field.label}: value ${i + 1}`}
              type={secretName(name) ? 'password' : 'text'}
              autoComplete="off"
              value={v}
              placeholder="value"
              onChange={(e) => change(rows.map((r, j) => (j === i ? [r[0], e.target.value] : r)))}
            />
            <button type="button" aria-label={`Remove ${name || 'this row'}`} onClick={() => change(rows.filter((_, j) => j !== i))}>
              ×
            </button>
          </div>
        ))}
        <button type="button" onClick={() => setRows([...rows, ['', '']])}>
          Add a row
        </button>
      </div>
      <Help field={field} />
      {problem && (
        <p className="field-problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** An object typed as JSON; kept as text until it parses. */
function JsonField({ id, field, value, onChange, problem }) {
  const [text, setText] = useState(value === undefined ? '' : JSON.stringify(value, null, 2));
  const [invalid, setInvalid] = useState(null);
  return (
    <div className={`field ${problem || invalid ? 'invalid' : ''}`}>
      <label htmlFor={id}>
        {field.label}
        {field.required ? ' *' : ''}
      </label>
      <textarea
        id={id}
        rows={5}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (!e.target.value.trim()) {
            setInvalid(null);
            onChange(undefined);
            return;
          }
          try {
            onChange(JSON.parse(e.target.value));
            setInvalid(null);
          } catch {
            setInvalid('is not valid JSON yet');
          }
        }}
      />
      <Help field={field} />
      {(problem || invalid) && (
        <p className="field-problem" role="alert">
          {problem || invalid}
        </p>
      )}
    </div>
  );
}

/**
 * The side panel of the selected node: its label, a form for its type's config, its connections
 * (each outgoing edge with its outcome), and a way to connect it on from the keyboard.
 *
 * @param context what the flow can read, for the variable picker: {sample, customFields,
 *     runOutputs, templates} (see variables.js)
 */
export default function ConfigPanel({
  node,
  nodes,
  edges,
  problems,
  tenantId,
  context = {},
  onChange,
  onConnect,
  onDelete,
  onTestEvent,
}) {
  const spec = NODE_TYPES[node.type];
  const variables = variableGroups(node.id, nodes, edges, context);
  const config = node.data.config || {};
  const problemsOf = (key) => problems.filter((p) => p.key === key).map((p) => p.short);
  const others = problems.filter((p) => !p.key || !spec.fields.some((f) => f.key === p.key));
  const outcomes = outcomesOf(node);
  const targets = nodes.filter(
    (n) =>
      n.id !== node.id &&
      !NODE_TYPES[n.type]?.trigger &&
      !edges.some((e) => e.source === node.id && e.target === n.id),
  );
  const unused = outcomes.filter((o) => !edges.some((e) => e.source === node.id && e.label === o));
  const [outcome, setOutcome] = useState(null);
  const chosen = outcome && outcomes.includes(outcome) ? outcome : unused[0] || outcomes[0];
  const labelOf = (id) => nodes.find((n) => n.id === id)?.data.label || id;
  return (
    <form className="config" onSubmit={(e) => e.preventDefault()} aria-label={`Settings of ${node.data.label}`}>
      <h2>{spec.label}</h2>
      <div className="field">
        <label htmlFor="node-label">Label</label>
        <input id="node-label" value={node.data.label} onChange={(e) => onChange({ label: e.target.value })} />
      </div>
      {spec.fields.map((field) => (
        <Field
          key={field.key}
          field={field}
          value={config[field.key]}
          problem={problemsOf(field.key).join(' · ') || undefined}
          variables={variables}
          templates={context.templates}
          onChange={(v) => {
            const next = { ...config };
            if (v === undefined) delete next[field.key];
            else next[field.key] = v;
            onChange({ config: next });
          }}
        />
      ))}
      {!spec.trigger && (
        <div className="field">
          <label>
            <input
              type="checkbox"
              checked={config.continueOnFailure === true}
              onChange={(e) => onChange({ config: { ...config, continueOnFailure: e.target.checked || undefined } })}
            />{' '}
            Continue on failure
          </label>
        </div>
      )}
      {others.length > 0 && (
        <ul className="problems" aria-label="Problems of this node">
          {others.map((p) => (
            <li key={p.short}>{p.short}</li>
          ))}
        </ul>
      )}
      <fieldset className="connections">
        <legend>Connections</legend>
        <ul>
          {edges
            .filter((e) => e.source === node.id)
            .map((e) => (
              <li key={e.id}>
                → {labelOf(e.target)}
                {e.label ? ` (${e.label})` : ''}
              </li>
            ))}
        </ul>
        {onConnect && targets.length > 0 && (
          <>
            {outcomes.length > 0 && (
              <>
                <label htmlFor="connect-outcome">Outcome</label>
                <select id="connect-outcome" value={chosen} onChange={(e) => setOutcome(e.target.value)}>
                  {outcomes.map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              </>
            )}
            <label htmlFor="connect-to">Connect to</label>
            <select
              id="connect-to"
              value=""
              onChange={(e) => {
                if (!e.target.value) return;
                onConnect(e.target.value, outcomes.length ? chosen : undefined);
                setOutcome(null);
              }}
            >
              <option value="">choose a node…</option>
              {targets.map((n) => (
                <option key={n.id} value={n.id}>
                  {n.data.label || NODE_TYPES[n.type]?.label}
                </option>
              ))}
            </select>
          </>
        )}
      </fieldset>
      {node.type === 'webhook_trigger' && <TestEvent tenantId={tenantId} node={node} onSent={onTestEvent} />}
      <button type="button" className="danger" onClick={onDelete}>
        Delete node
      </button>
    </form>
  );
}

/** A test body with the tenant's newest contact, so that {{contact.*}} has values. */
async function defaultBody() {
  try {
    const answer = await get('/api/v1/contacts?limit=1');
    const contact = answer.contacts?.[0];
    if (contact) return JSON.stringify({ contact_id: contact.id, email: contact.email }, null, 2);
  } catch {
    // a key without contacts:read types its own contact_id
  }
  return JSON.stringify({ contact_id: '<a contact id>', email: 'ada@example.com' }, null, 2);
}

/** The trigger's URL with a copy button, and a test event fired at it with a JSON body typed here. */
function TestEvent({ tenantId, node, onSent }) {
  const path = `/api/webhooks/automation/${tenantId}/${node.id}`;
  const url = window.location.origin + path;
  const [body, setBody] = useState(null);
  const [secret, setSecret] = useState('');
  const [answer, setAnswer] = useState(null);
  const [copied, setCopied] = useState(false);
  const urlField = useRef(null);
  useEffect(() => {
    let live = true;
    defaultBody().then((b) => live && setBody((typed) => typed ?? b));
    return () => {
      live = false;
    };
  }, []);
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // without clipboard access the URL is selected, for Ctrl+C
      urlField.current?.select();
    }
    setCopied(true);
  }
  async function fire() {
    try {
      const headers = { 'X-No-Key': '1' };
      if (secret) headers['X-Webhook-Secret'] = secret;
      const result = await call('POST', path, body ?? '{}', headers);
      setAnswer({ ok: true, runId: result.runId });
      try {
        onSent?.(JSON.parse(body ?? '{}'));
      } catch {
        // a body that is no JSON object gives the picker no sample
      }
    } catch (e) {
      setAnswer({ ok: false, text: e instanceof Problem ? `${e.status}: ${e.message}` : e.message });
    }
  }
  return (
    <fieldset className="test-event">
      <legend>Test event</legend>
      <label htmlFor="webhook-url">URL (saved and active flows only)</label>
      <div className="copy-row">
        <input id="webhook-url" ref={urlField} readOnly value={url} onFocus={(e) => e.target.select()} />
        <button type="button" onClick={copy} aria-label="Copy the webhook URL">
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <label htmlFor="test-body">JSON body</label>
      <textarea id="test-body" rows={4} value={body ?? ''} onChange={(e) => setBody(e.target.value)} />
      <label htmlFor="test-secret">X-Webhook-Secret (if the trigger has one)</label>
      <input id="test-secret" type="password" value={secret} onChange={(e) => setSecret(e.target.value)} />
      <button type="button" onClick={fire}>
        Send test event
      </button>
      {answer &&
        (answer.ok ? (
          <p role="status">
            Run started: <a href={`#/sequences/${window.location.hash.split('/')[2]}/runs/${answer.runId}`}>{answer.runId}</a>
          </p>
        ) : (
          <p role="alert" className="error">
            {answer.text}
          </p>
        ))}
    </fieldset>
  );
}
