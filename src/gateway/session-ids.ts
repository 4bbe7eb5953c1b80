// Where a request names its session, strongest first. Our own `X-Session-Id` header and
// `session_id` body field; then what the agents send as they ship (test/fixtures/agents/README.md):
// Claude Code's `x-claude-code-session-id`, Codex's `session-id`, OpenClaw's `session_id` header
// and the session part of its `x-session-affinity`. Weaker hints (prompt_cache_key, Claude Code's
// metadata.user_id) are read by sessions/hints.ts and only name a session none of these did.
import { checkSessionId } from '../sessions/index.ts';
import { headerValue } from './headers.ts';

/** One place a session id may come from: its name (shown at /healthz and the session view) and reader. */
interface SessionIdSource {
  name: string;
  read(headers: Record<string, unknown>, body: Record<string, unknown>): string | undefined;
}

const fromHeader = (name: string): SessionIdSource => ({ name, read: (headers) => headerValue(headers, name) });

export const SESSION_ID_SOURCES: readonly SessionIdSource[] = [
  fromHeader('x-session-id'),
  {
    name: 'body.session_id',
    read: (_headers, body) =>
      typeof body.session_id === 'string' || typeof body.session_id === 'number' ? String(body.session_id) : undefined,
  },
  fromHeader('x-claude-code-session-id'),
  fromHeader('session-id'),
  fromHeader('session_id'),
  {
    // OpenClaw: "<sessionKey>" or "<sessionKey>:<suffix>"; the session part stays the same across a session.
    name: 'x-session-affinity',
    read: (headers) => headerValue(headers, 'x-session-affinity')?.split(/[;,]/)[0]?.trim() || undefined,
  },
];

/** The explicit session id of a request and where it came from (400 naming the source when it is malformed). */
export function explicitSessionId(
  headers: Record<string, unknown>,
  body: Record<string, unknown>,
): { id: string; source: string } | undefined {
  for (const s of SESSION_ID_SOURCES) {
    const v = s.read(headers, body);
    if (v !== undefined) return { id: checkSessionId(v, s.name === 'body.session_id' ? 'session_id' : s.name), source: s.name };
  }
  return undefined;
}
