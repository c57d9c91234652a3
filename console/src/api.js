// Every call of the console goes through the public API with the signed-in key, which lives in
// sessionStorage only (gone when the tab closes).

const KEY = 'crmflow.apiKey';

export function apiKey() {
  return sessionStorage.getItem(KEY);
}

export function signIn(key) {
  sessionStorage.setItem(KEY, key.trim());
}

export function signOut() {
  sessionStorage.removeItem(KEY);
}

/** A refusal of the API: its RFC 9457 problem document, with the field errors. */
export class Problem extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
    this.errors = (body && body.errors) || [];
  }

  /** The field errors as {field: message}. */
  byField() {
    const out = {};
    for (const e of this.errors) {
      if (e.field) out[e.field] = e.message;
    }
    return out;
  }
}

export async function call(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  const key = apiKey();
  if (key && !headers['X-No-Key']) init.headers.Authorization = `Bearer ${key}`;
  delete init.headers['X-No-Key'];
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = { detail: text };
  }
  if (!response.ok) throw new Problem(response.status, json);
  return json;
}

export const get = (path) => call('GET', path);
export const post = (path, body, headers) => call('POST', path, body ?? {}, headers);
export const put = (path, body) => call('PUT', path, body);
export const patch = (path, body) => call('PATCH', path, body);

/** Whether the signed-in key may use a scope ("*" holds every scope). */
export function can(me, scope) {
  return me.scopes.includes('*') || me.scopes.includes(scope);
}

/** The reason shown on a control the key cannot use, or undefined when it can. */
export function missing(me, scope) {
  return can(me, scope) ? undefined : `This API key lacks ${scope}.`;
}
