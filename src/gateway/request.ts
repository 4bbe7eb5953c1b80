// Parsing a chat-completions request once at the edge: validate what we rely on (OpenAI-shaped
// 400s naming the field), pull out session metadata (headers or body), and build the upstream body:
// unknown fields pass through untouched, our metadata fields are removed, `max_tokens` is clamped.
// Given the text the body was parsed from, `messages` and `tools` keep it (RawJson): the upstream
// request sends that text as is and the turn's record line reuses the tools' text.
import { z } from 'zod';
import { invalidRequest } from '../errors/index.ts';
import type { ChatMessage } from '../engines/types.ts';
import { CHAT_ROLES, acceptsChatBody, acceptsMessage } from './fast-accept.ts';
import { JsonObjectParts, rawMembers, type RawJson } from '../raw-json/json-text.ts';
import { withoutKeys } from '../raw-json/objects.ts';
import { explicitSessionId } from './session-ids.ts';
import { headerValue } from './headers.ts';

/** Our session metadata fields: read here, never forwarded. */
const SESSION_FIELDS = new Set(['session_id', 'turn_type', 'session_done']);
/** The members sent upstream as the text they came in: OpenClaw's are tens of KB. */
const RAW_MEMBERS: ReadonlySet<string> = new Set(['messages', 'tools']);

export const MessageSchema = z
  .object({
    role: z.enum(CHAT_ROLES),
    // zod's default union message is just "Invalid input": say what a content may be.
    content: z
      .union([z.string(), z.array(z.object({ type: z.string() }).passthrough()), z.null()], {
        errorMap: () => ({ message: 'expected a string, a list of content parts (objects with a "type"), or null' }),
      })
      .optional(),
    tool_calls: z.array(z.object({}).passthrough()).optional(),
    tool_call_id: z.string().optional(),
    name: z.string().optional(),
  })
  .passthrough();

export const ChatBodySchema = z
  .object({
    model: z.string().optional(),
    messages: z.array(z.unknown()).min(1, 'messages must contain at least one message'),
    stream: z.boolean().optional(),
    max_tokens: z.number().int().positive().nullable().optional(),
    max_completion_tokens: z.number().int().positive().nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().gt(0).max(1).nullable().optional(),
    n: z.number().int().positive().nullable().optional(),
    tools: z.array(z.object({}).passthrough()).optional(),
    logprobs: z.boolean().nullable().optional(),
    top_logprobs: z.number().int().min(0).max(20).nullable().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).passthrough().nullable().optional(),
    session_id: z.union([z.string().min(1), z.number()]).optional(),
    turn_type: z.string().optional(),
    session_done: z.union([z.boolean(), z.string(), z.number()]).optional(),
  })
  .passthrough();

/** Session metadata of a request, from headers or body fields. */
export interface RequestMeta {
  sessionId?: string;
  /** Where the session id came from (session-ids.ts), e.g. `x-claude-code-session-id`. */
  sessionSource?: string;
  turnType?: string;
  sessionDone: boolean;
  traceparent?: string;
}

/** A validated request: the messages, the metadata, and the body to send upstream. */
export interface ParsedChatRequest {
  messages: ChatMessage[];
  stream: boolean;
  includeUsage: boolean;
  clientWantsLogprobs: boolean;
  meta: RequestMeta;
  /** What goes upstream: plain members (ours to change), plus messages and tools as their text. */
  upstreamBody: JsonObjectParts;
  tools?: unknown[];
  /** `tools` with the text they came in, when the request's text was given and they passed unchanged. */
  toolsJson?: RawJson<unknown[]>;
}

function zodToInvalid(err: z.ZodError, prefix: string) {
  const issue = err.issues[0];
  const param = [prefix, ...issue.path]
    .filter((p) => p !== '')
    .map(String)
    .join('.')
    .replace(/\.(\d+)/g, '[$1]');
  return invalidRequest(`Invalid value for '${param}': ${issue.message}`, param, 'invalid_value');
}

function truthy(v: unknown): boolean {
  return v === true || v === 1 || (typeof v === 'string' && /^(1|true|yes)$/i.test(v.trim()));
}

/** Options that shape the upstream body. */
export interface UpstreamShaping {
  modelId: string;
  maxTokensLimit: number;
}

/**
 * Validates a chat request body and splits it into metadata and the upstream body. `text` is the
 * JSON text `body` was parsed from, unchanged since (the server's parser keeps it).
 */
export function parseChatRequest(
  body: unknown,
  headers: Record<string, unknown>,
  shaping: UpstreamShaping,
  text?: string,
): ParsedChatRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidRequest('Request body must be a JSON object (sent with Content-Type: application/json).', null, 'invalid_body');
  }
  if (!('messages' in body)) throw invalidRequest("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  // The schemas decide (and word the 400) whenever the fast checks cannot vouch for the body.
  let b = body as z.infer<typeof ChatBodySchema>;
  if (!acceptsChatBody(body as Record<string, unknown>)) {
    const parsed = ChatBodySchema.safeParse(body);
    if (!parsed.success) throw zodToInvalid(parsed.error, '');
    b = parsed.data;
  }
  // The request's own array when every message passes as it is: nothing is copied.
  let messages = b.messages as ChatMessage[];
  for (let i = 0; i < b.messages.length; i++) {
    if (acceptsMessage(b.messages[i])) continue;
    const m = MessageSchema.safeParse(b.messages[i]);
    if (!m.success) throw zodToInvalid(m.error, `messages.${i}`);
    if (messages === b.messages) messages = [...messages];
    messages[i] = m.data as ChatMessage;
  }
  const named = explicitSessionId(headers, b as Record<string, unknown>);
  const meta: RequestMeta = {
    sessionId: named?.id,
    sessionSource: named?.source,
    turnType: headerValue(headers, 'x-turn-type') ?? b.turn_type,
    sessionDone: truthy(headerValue(headers, 'x-session-done')) || truthy(b.session_done),
    traceparent: headerValue(headers, 'traceparent'),
  };
  const raw = text === undefined ? new Map<string, RawJson>() : rawMembers(body as Record<string, unknown>, text, RAW_MEMBERS);
  const upstream = withoutKeys(
    body as Record<string, unknown>,
    raw.size === 0 ? SESSION_FIELDS : new Set([...SESSION_FIELDS, ...raw.keys()]),
  );
  upstream.model = shaping.modelId;
  for (const key of ['max_tokens', 'max_completion_tokens'] as const) {
    const v = b[key];
    if (typeof v === 'number' && v > shaping.maxTokensLimit) upstream[key] = shaping.maxTokensLimit;
  }
  const clientWantsLogprobs = b.logprobs === true;
  return {
    messages,
    stream: b.stream === true,
    includeUsage: b.stream_options?.include_usage === true,
    clientWantsLogprobs,
    meta,
    upstreamBody: new JsonObjectParts(upstream, raw),
    tools: b.tools,
    // The schema's copy (b !== body) is a value of its own: its text would be formatted afresh.
    toolsJson: raw.get('tools')?.value === b.tools ? (raw.get('tools') as RawJson<unknown[]>) : undefined,
  };
}

/** Main turns train on the answer: ask the upstream for per-token log-probs and token ids. */
export function requestTokenData(upstream: Record<string, unknown>, returnTokenIds: boolean): void {
  if (upstream.logprobs !== true) upstream.logprobs = true;
  if (returnTokenIds && upstream.return_token_ids === undefined) upstream.return_token_ids = true;
}
