// Anthropic Messages (`POST /v1/messages`), as Claude Code and @anthropic-ai/sdk send it, turned
// into the canonical Chat Completions turn:
//   system (string | text blocks)           → one system message
//   user text / tool_result blocks          → tool messages (first, as Anthropic orders them), then the user text
//   assistant text / thinking / tool_use    → content / reasoning_content / tool_calls (input as JSON text)
//   tools {name, input_schema}, tool_choice → function tools, auto / required / named / none
//   stop_sequences, max_tokens, top_k, thinking → stop, max_tokens, top_k, chat_template_kwargs.enable_thinking
// What the policy cannot use (server tools, redacted thinking, context_management, …) is left out
// and counted; images are refused with a 400, since the policy reads text only.
import type { ChatMessage } from '../../engines/types.ts';
import {
  badField,
  functionTool,
  isObject,
  list,
  object,
  requestObject,
  optionalBoolean,
  optionalNumber,
  string,
  textOfBlocks,
  type Json,
} from './fields.ts';
import type { CanonicalRequest, WireProtocol } from './types.ts';
import { bearerToken, headerValue } from '../headers.ts';
import { anthropicError, renderMessage, AnthropicStream, type AnthropicState } from './anthropic-render.ts';

const TEXT: ReadonlySet<string> = new Set(['text']);
/** Blocks a policy that reads only text cannot take: refused, never silently dropped. */
const MEDIA: ReadonlySet<string> = new Set(['image', 'document']);
/** Top-level fields with no meaning for a self-hosted policy: accepted, left out, counted. */
const IGNORED_FIELDS = [
  'context_management',
  'container',
  'mcp_servers',
  'service_tier',
  'betas',
  'output_config',
  'speed',
  'inference_geo',
];

function mediaRefused(type: string, path: string): never {
  throw badField(path, `${type} blocks are not supported: this policy reads text only. Send the content as text.`);
}

/** System prompt: a string or a list of text blocks (cache_control and citations are ignored). */
function systemText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  const blocks = list(v, 'system');
  return textOfBlocks(blocks, 'system', TEXT, (type, path) => {
    throw badField(`${path}.type`, `expected "text" in the system prompt, got "${type}"`);
  }).join('\n\n');
}

/** A tool_result's content: a string or text blocks (images refused). */
function toolResultText(v: unknown, param: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  return textOfBlocks(list(v, param), param, TEXT, (type, path) => {
    if (MEDIA.has(type)) mediaRefused(type, path);
    throw badField(`${path}.type`, `expected "text" inside a tool_result, got "${type}"`);
  }).join('\n\n');
}

function assistantMessage(blocks: unknown[], param: string, ignored: string[]): { message: ChatMessage; callIds: Set<string> } {
  let text = '';
  let reasoning = '';
  const calls: Array<Record<string, unknown>> = [];
  for (let j = 0; j < blocks.length; j++) {
    const path = `${param}[${j}]`;
    const b = object(blocks[j], path);
    const type = string(b.type, `${path}.type`);
    if (type === 'text') text += string(b.text, `${path}.text`);
    else if (type === 'thinking') reasoning += string(b.thinking, `${path}.thinking`);
    else if (type === 'tool_use') {
      const id = string(b.id, `${path}.id`);
      const name = string(b.name, `${path}.name`);
      const input = b.input === undefined ? {} : object(b.input, `${path}.input`);
      calls.push({ id, type: 'function', function: { name, arguments: JSON.stringify(input) } });
    } else if (type === 'redacted_thinking' || type.startsWith('server_tool_use') || type.endsWith('_tool_result')) ignored.push(type);
    else if (MEDIA.has(type)) mediaRefused(type, path);
    else throw badField(`${path}.type`, `unknown block type "${type}" in an assistant message`);
  }
  const message: ChatMessage = { role: 'assistant', content: calls.length > 0 && text === '' ? null : text };
  if (calls.length > 0) message.tool_calls = calls;
  if (reasoning !== '') message.reasoning_content = reasoning;
  return { message, callIds: new Set(calls.map((c) => c.id as string)) };
}

/** A user message's blocks: tool results (as tool messages, checked against the previous tool_use ids), then text. */
function userMessages(blocks: unknown[], param: string, callIds: Set<string>, ignored: string[]): ChatMessage[] {
  const tools: ChatMessage[] = [];
  const texts: string[] = [];
  for (let j = 0; j < blocks.length; j++) {
    const path = `${param}[${j}]`;
    const b = object(blocks[j], path);
    const type = string(b.type, `${path}.type`);
    if (type === 'text') texts.push(string(b.text, `${path}.text`));
    else if (type === 'tool_result') {
      const id = string(b.tool_use_id, `${path}.tool_use_id`);
      if (!callIds.has(id))
        throw badField(`${path}.tool_use_id`, `no tool_use block with id "${id}" in the assistant message just before this one`);
      const m: ChatMessage = { role: 'tool', tool_call_id: id, content: toolResultText(b.content, `${path}.content`) };
      if (optionalBoolean(b.is_error, `${path}.is_error`) === true) m.is_error = true;
      tools.push(m);
    } else if (MEDIA.has(type)) mediaRefused(type, path);
    else if (type === 'search_result' || type === 'container_upload') ignored.push(type);
    else throw badField(`${path}.type`, `unknown block type "${type}" in a user message`);
  }
  return texts.length > 0 ? [...tools, { role: 'user', content: texts.join('\n\n') }] : tools;
}

function chatMessages(v: unknown, ignored: string[]): ChatMessage[] {
  const messages = list(v, 'messages', 1);
  const out: ChatMessage[] = [];
  let callIds = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const path = `messages[${i}]`;
    const m = object(messages[i], path);
    const role = string(m.role, `${path}.role`);
    if (role !== 'user' && role !== 'assistant' && role !== 'system')
      throw badField(`${path}.role`, `expected "user" or "assistant", got "${role}"`);
    const content = m.content;
    if (role === 'system') {
      out.push({ role: 'system', content: systemText(content) ?? '' });
      continue;
    }
    if (typeof content === 'string') {
      out.push({ role, content });
      callIds = new Set();
      continue;
    }
    const blocks = list(content, `${path}.content`);
    if (role === 'assistant') {
      const a = assistantMessage(blocks, `${path}.content`, ignored);
      out.push(a.message);
      callIds = a.callIds;
    } else {
      out.push(...userMessages(blocks, `${path}.content`, callIds, ignored));
      callIds = new Set();
    }
  }
  return out;
}

/** Custom tools become function tools; Anthropic's server tools (web search, bash, …) and deferred tools are left out. */
function chatTools(v: unknown, ignored: string[]): Json[] | undefined {
  if (v === undefined || v === null) return undefined;
  const tools = list(v, 'tools');
  const out: Json[] = [];
  for (let k = 0; k < tools.length; k++) {
    const t = object(tools[k], `tools[${k}]`);
    if (t.type !== undefined && t.type !== null && t.type !== 'custom') {
      ignored.push(`tool:${String(t.type)}`);
      continue;
    }
    // Deferred tools are hidden from the model until a tool search loads them (Claude Code's
    // DeferredToolPlaceholder): the policy has no tool search, so it never sees them.
    if (t.defer_loading === true) {
      ignored.push('tool:deferred');
      continue;
    }
    out.push(functionTool(t, `tools[${k}]`, 'input_schema'));
  }
  return out;
}

function chatToolChoice(v: unknown, body: Json): void {
  if (v === undefined || v === null) return;
  const c = object(v, 'tool_choice');
  const type = string(c.type, 'tool_choice.type');
  if (type === 'auto') body.tool_choice = 'auto';
  else if (type === 'any') body.tool_choice = 'required';
  else if (type === 'none') body.tool_choice = 'none';
  else if (type === 'tool') body.tool_choice = { type: 'function', function: { name: string(c.name, 'tool_choice.name') } };
  else throw badField('tool_choice.type', `expected "auto", "any", "tool" or "none", got "${type}"`);
  if (optionalBoolean(c.disable_parallel_tool_use, 'tool_choice.disable_parallel_tool_use') === true) body.parallel_tool_calls = false;
}

/** Claude Code's `metadata.user_id`: a JSON string holding `session_id` (older versions: `…_session_<uuid>`). */
function userSessionId(metadata: unknown): string | undefined {
  if (!isObject(metadata) || typeof metadata.user_id !== 'string') return undefined;
  const raw = metadata.user_id;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isObject(parsed) && typeof parsed.session_id === 'string' && parsed.session_id !== '') return parsed.session_id;
  } catch {
    /* not JSON: try the older form */
  }
  return /_session_([A-Za-z0-9-]{8,})$/.exec(raw)?.[1];
}

function thinkingSetting(v: unknown, body: Json, state: AnthropicState): void {
  if (v === undefined || v === null) return;
  const t = object(v, 'thinking');
  const type = string(t.type, 'thinking.type');
  if (type === 'disabled') body.chat_template_kwargs = { enable_thinking: false };
  else if (type === 'enabled' || type === 'adaptive') {
    body.chat_template_kwargs = { enable_thinking: true };
    state.omitThinking = t.display === 'omitted';
  } else throw badField('thinking.type', `expected "enabled", "adaptive" or "disabled", got "${type}"`);
}

/** Parses an Anthropic Messages body into the canonical turn. */
export function parseMessagesRequest(input: unknown): CanonicalRequest {
  const body = requestObject(input);
  const ignored: string[] = [];
  const model = string(body.model, 'model');
  const maxTokens = optionalNumber(body.max_tokens, 'max_tokens', { min: 1, int: true });
  if (maxTokens === undefined) throw badField('max_tokens', 'required: the most tokens the answer may have (an integer ≥ 1)');
  const state: AnthropicState = { model, omitThinking: false };
  const messages = chatMessages(body.messages, ignored);
  const system = systemText(body.system);
  const chat: Json = {
    model,
    messages: system !== undefined ? [{ role: 'system', content: system }, ...messages] : messages,
    max_tokens: maxTokens,
    stream: optionalBoolean(body.stream, 'stream') === true,
    stream_options: { include_usage: true },
  };
  const temperature = optionalNumber(body.temperature, 'temperature', { min: 0, max: 1 });
  if (temperature !== undefined) chat.temperature = temperature;
  const topP = optionalNumber(body.top_p, 'top_p', { min: 0, max: 1, exclusiveMin: true });
  if (topP !== undefined) chat.top_p = topP;
  const topK = optionalNumber(body.top_k, 'top_k', { min: 0, int: true });
  if (topK !== undefined) chat.top_k = topK;
  if (body.stop_sequences !== undefined && body.stop_sequences !== null) {
    const stops = list(body.stop_sequences, 'stop_sequences').map((s, i) => string(s, `stop_sequences[${i}]`));
    if (stops.length > 0) chat.stop = stops;
  }
  const tools = chatTools(body.tools, ignored);
  if (tools !== undefined && tools.length > 0) chat.tools = tools;
  chatToolChoice(body.tool_choice, chat);
  thinkingSetting(body.thinking, chat, state);
  for (const f of IGNORED_FIELDS) if (body[f] !== undefined) ignored.push(f);
  const sessionId = userSessionId(body.metadata);
  return { chat, model, ignored, state, hints: sessionId !== undefined ? { userSessionId: sessionId } : undefined };
}

/** The Anthropic Messages protocol. */
export const anthropicMessages: WireProtocol = {
  name: 'anthropic-messages',
  path: '/v1/messages',
  apiKey: (headers) => headerValue(headers, 'x-api-key') ?? bearerToken(headers),
  parse: (body) => parseMessagesRequest(body),
  render: (_json, acc, ctx) => renderMessage(acc, ctx.canonical.state as AnthropicState),
  stream: (ctx) => new AnthropicStream(ctx.canonical.state as AnthropicState),
  error: anthropicError,
};
