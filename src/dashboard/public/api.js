// Talks to the dashboard API of the server that served the page. A server with an API key wants
// `Authorization: Bearer <key>` on every data request: the key comes from `#key=…` (or `?key=…`)
// in the page URL, is kept in this tab's sessionStorage, and is removed from the address bar.

const KEY_STORAGE = 'openclaw-rl.dashboard.key';
// Relative to the page, so a reverse proxy may mount the server under a prefix.
const API_BASE = new URL('dashboard/api/', window.location.href);

/** Thrown when the server refuses the key (or wants one). */
export class AuthError extends Error {}

/** Moves a key given in the URL into sessionStorage and out of the address bar. */
export function takeKeyFromUrl() {
  const url = new URL(window.location.href);
  const fromHash = new URLSearchParams(url.hash.slice(1)).get('key');
  const fromQuery = url.searchParams.get('key');
  const key = fromHash ?? fromQuery;
  if (key === null) return;
  setKey(key);
  url.hash = '';
  url.searchParams.delete('key');
  window.history.replaceState(null, '', url.pathname + url.search);
}

/** Remembers the key for this tab. */
export function setKey(key) {
  window.sessionStorage.setItem(KEY_STORAGE, key);
}

/** GET a dashboard API path (e.g. `steps?since=3`) and parse its JSON. */
export async function getJson(path) {
  const key = window.sessionStorage.getItem(KEY_STORAGE);
  const headers = key ? { authorization: `Bearer ${key}` } : {};
  const res = await fetch(new URL(path, API_BASE), { headers, cache: 'no-store' });
  const body = await res.json().catch(() => null);
  if (res.status === 401) throw new AuthError(body?.error?.message ?? 'API key required');
  if (!res.ok) throw new Error(body?.error?.message ?? `HTTP ${res.status}`);
  return body;
}
