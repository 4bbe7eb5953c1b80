// Session ids at the HTTP edge: one length limit for every way an id comes in (X-Session-Id,
// body `session_id`, POST /session) and goes out (GET /sessions/:id), a check that an explicit id
// is text a person could have typed, and the one encoding used wherever an id is echoed into the
// `x-session-id` response header (ids inferred from prompt_cache_key or OpenClaw's runtime line
// can hold any character, and Node throws on a header value outside printable Latin-1).
import { invalidRequest } from '../errors/index.ts';

/** Longest session id, in characters, accepted anywhere (chat, POST /session, GET /sessions/:id). */
export const MAX_SESSION_ID_CHARS = 256;

/**
 * The longest `/sessions/:id` path parameter the router lets through: the longest id with every
 * character percent-encoded as 4 UTF-8 bytes (`%F0%9F%98%80`), so only our own check decides.
 */
export const MAX_SESSION_ID_PARAM = MAX_SESSION_ID_CHARS * 12;

// C0 controls and DEL: CR/LF/NUL in an id are never meant, and would break log lines and headers.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this regex's job
const CONTROL = /[\u0000-\u001f\u007f]/;
// A high surrogate without its low half, or a low one without its high half (JSON allows "\ud800").
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Why `id` cannot be a session id, or undefined when it can. */
export function sessionIdProblem(id: string): string | undefined {
  if (id.trim() === '') return 'must not be empty';
  if (id.length > MAX_SESSION_ID_CHARS) return `is ${id.length} characters long; the limit is ${MAX_SESSION_ID_CHARS}`;
  if (CONTROL.test(id)) return 'contains a control character (CR, LF, NUL, …)';
  if (id.search(LONE_SURROGATE) !== -1) return 'contains a lone UTF-16 surrogate (not valid Unicode)';
  return undefined;
}

/** Throws a 400 naming `param` when `id` cannot be a session id; returns it otherwise. */
export function checkSessionId(id: string, param: string): string {
  const problem = sessionIdProblem(id);
  if (problem !== undefined) throw invalidRequest(`Invalid value for '${param}': the session id ${problem}.`, param, 'invalid_session_id');
  return id;
}

// Printable ASCII except '%', and no space at either end (HTTP trims those): sent as it is.
const PLAIN = /^(?:[!-$&-~]|[!-$&-~][ -$&-~]*[!-$&-~])$/;

/**
 * The `x-session-id` header value of `id`: the id itself when it is printable ASCII without '%',
 * otherwise its `encodeURIComponent` form. Either way `decodeURIComponent(header) === id`.
 */
export function sessionIdHeader(id: string): string {
  if (PLAIN.test(id)) return id;
  // A lone surrogate (an inferred id may hold one) cannot be percent-encoded: it becomes U+FFFD.
  return encodeURIComponent(id.replace(LONE_SURROGATE, '\ufffd'));
}
