// The fast path of request validation. zod parses a chat body in tens of microseconds on every
// request; these checks accept the common well-formed shapes in a few. They only ever say "surely
// valid": anything they do not accept goes to the zod schemas in request.ts, which decide and word
// the error. So they must never accept what the schemas reject (fast-accept.test.ts holds them to
// that), and may reject valid input (it is then only slower).

/** The message roles a chat request may use (the schema in request.ts uses the same list). */
export const CHAT_ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'] as const;
const ROLES: ReadonlySet<string> = new Set(CHAT_ROLES);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isObjectList(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (!isObject(x)) return false;
  return true;
}

function absentOr(v: unknown, ok: (v: unknown) => boolean): boolean {
  return v === undefined || v === null || ok(v);
}

const positiveInt = (v: unknown) => Number.isInteger(v) && (v as number) > 0;
// zod's z.number() refuses NaN (JSON cannot carry it, but a body built in code can).
const isNumber = (v: unknown): v is number => typeof v === 'number' && !Number.isNaN(v);

/** True when MessageSchema surely accepts `m` as it is. */
export function acceptsMessage(m: unknown): boolean {
  if (!isObject(m) || typeof m.role !== 'string' || !ROLES.has(m.role)) return false;
  const c = m.content;
  if (c !== undefined && c !== null && typeof c !== 'string') {
    if (!Array.isArray(c)) return false;
    for (const part of c) if (!isObject(part) || typeof part.type !== 'string') return false;
  }
  if (m.tool_calls !== undefined && !isObjectList(m.tool_calls)) return false;
  if (m.tool_call_id !== undefined && typeof m.tool_call_id !== 'string') return false;
  return m.name === undefined || typeof m.name === 'string';
}

/** True when ChatBodySchema surely accepts `b` as it is (messages themselves are checked one by one). */
export function acceptsChatBody(b: Record<string, unknown>): boolean {
  if (!Array.isArray(b.messages) || b.messages.length === 0) return false;
  if (b.model !== undefined && typeof b.model !== 'string') return false;
  if (b.stream !== undefined && typeof b.stream !== 'boolean') return false;
  if (!absentOr(b.max_tokens, positiveInt) || !absentOr(b.max_completion_tokens, positiveInt) || !absentOr(b.n, positiveInt)) return false;
  if (!absentOr(b.temperature, (v) => typeof v === 'number' && v >= 0 && v <= 2)) return false;
  if (!absentOr(b.top_p, (v) => typeof v === 'number' && v > 0 && v <= 1)) return false;
  if (b.tools !== undefined && !isObjectList(b.tools)) return false;
  if (!absentOr(b.logprobs, (v) => typeof v === 'boolean')) return false;
  if (!absentOr(b.top_logprobs, (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 20)) return false;
  if (!absentOr(b.stream_options, (v) => isObject(v) && (v.include_usage === undefined || typeof v.include_usage === 'boolean')))
    return false;
  if (b.session_id !== undefined && !(isNumber(b.session_id) || (typeof b.session_id === 'string' && b.session_id.length > 0)))
    return false;
  if (b.turn_type !== undefined && typeof b.turn_type !== 'string') return false;
  const done = b.session_done;
  return done === undefined || typeof done === 'boolean' || typeof done === 'string' || isNumber(done);
}
