// The console's address: #/page/parts?filters. A list's filters live in the address, so a
// reload, a link or the back button shows the same list.

/** {parts, params} of an address such as "#/sequences?status=draft". */
export function parseRoute(hash) {
  const [path, query = ''] = (hash || '#/sequences').replace(/^#/, '').split('?');
  return { parts: path.split('/').filter(Boolean), params: new URLSearchParams(query) };
}

/** "#/sequences?q=lead": the path with the params that are set (empty ones left out). */
export function routeOf(path, params = {}) {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  const text = query.toString();
  return `#${path}${text ? `?${text}` : ''}`;
}

/**
 * Goes to an address; with replace, in place of the current one (a search typed letter by letter
 * is one step back, not one per letter).
 */
export function go(hash, { replace = false } = {}) {
  if (window.location.hash === hash) return;
  if (replace) {
    window.history.replaceState(null, '', hash);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    window.location.hash = hash;
  }
}
