// Session hints some clients leave in their requests (fixtures/README.md): OpenClaw's
// `Runtime: … sessionId=…` trailer in the first user message, `prompt_cache_key`
// ("<sessionId>:<n>") and the W3C `traceparent` trace id shared by one user turn's requests.
import type { ChatMessage } from '../engines/types.ts';
import { contentText } from './canonical.ts';
import { MAX_SESSION_ID_CHARS } from './session-id.ts';

/** Stable session identifiers found in the request, strongest first. */
export interface SessionHints {
  runtimeSessionId?: string;
  promptCacheKey?: string;
  /** Claude Code's `metadata.user_id` session (read by the Anthropic Messages adapter). */
  userSessionId?: string;
  traceId?: string;
}

const RUNTIME = /Runtime:[^\n]*?\bsessionId=([A-Za-z0-9._:-]+)/;
// Room left for the tracker's `openclaw-` / `pck-` prefix: a longer hint would make a session id
// GET /sessions/:id refuses, so it is not used.
const MAX_HINT_CHARS = MAX_SESSION_ID_CHARS - 16;

/** Extracts session hints from a request's messages, body and headers. */
export function sessionHints(messages: ChatMessage[], body: Record<string, unknown>, traceparent?: string): SessionHints {
  const hints: SessionHints = {};
  const firstUser = messages.find((m) => m.role === 'user');
  if (firstUser) {
    const m = RUNTIME.exec(contentText(firstUser.content));
    if (m && m[1].length <= MAX_HINT_CHARS) hints.runtimeSessionId = m[1];
  }
  if (typeof body.prompt_cache_key === 'string' && body.prompt_cache_key !== '') {
    // OpenClaw sends "<sessionId>:<n>"; the counter changes, the session part does not.
    const key = body.prompt_cache_key.replace(/:\d+$/, '');
    if (key.length <= MAX_HINT_CHARS) hints.promptCacheKey = key;
  }
  const tp = traceparent ? /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/i.exec(traceparent.trim()) : null;
  if (tp) hints.traceId = tp[1].toLowerCase();
  return hints;
}
