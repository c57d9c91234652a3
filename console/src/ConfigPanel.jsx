import { useEffect, useRef, useState } from 'react';
import { call, get, Problem } from './api.js';
import { NODE_TYPES, TIMEZONES, variablesBefore } from './nodeTypes.js';

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
function Field({ field, value, onChange, problem, variables }) {
  const id = `config-${field.key}`;
  let control;
  switch (field.kind) {
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
          rows={4}
          maxLength={field.maxLength ?? undefined}
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value || undefined)}
        />
      ) : (
        <input
          id={id}
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
        <select
          aria-label={`Insert a variable into ${field.label}`}
          value=""
          onChange={(e) => e.target.value && onChange(`${value ?? ''}${e.target.value}`)}
        >
          <option value="">insert a variable…</option>
          {variables.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      )}
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

/** The side panel of the selected node: its label, a form for its type's config, its connections. */
export default function ConfigPanel({ node, nodes, edges, problems, tenantId, onChange, onConnect, onDelete }) {
  const spec = NODE_TYPES[node.type];
  const variables = variablesBefore(node.id, nodes, edges);
  const config = node.data.config || {};
  const problemOf = (key) => problems.find((p) => p.key === key)?.short;
  const others = problems.filter((p) => !p.key || !spec.fields.some((f) => f.key === p.key));
  const targets = nodes.filter(
    (n) =>
      n.id !== node.id &&
      !NODE_TYPES[n.type]?.trigger &&
      !edges.some((e) => e.source === node.id && e.target === n.id),
  );
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
          problem={problemOf(field.key)}
          variables={variables}
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
        <ul className="problems">
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
            <label htmlFor="connect-to">Connect to</label>
            <select id="connect-to" value="" onChange={(e) => e.target.value && onConnect(e.target.value)}>
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
      {node.type === 'webhook_trigger' && <TestEvent tenantId={tenantId} node={node} />}
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
function TestEvent({ tenantId, node }) {
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
