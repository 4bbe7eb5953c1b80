// OpenAI Responses (`POST /v1/responses`), as Codex and the `openai` SDK send it, turned into the
// canonical Chat Completions turn:
//   instructions                         → the system message
//   input string / message items         → messages (input_text / output_text parts joined)
//   function_call / function_call_output → assistant tool_calls / tool messages (paired by call_id)
//   reasoning items                      → reasoning_content of the next assistant message
//   function tools, tool_choice, parallel_tool_calls, max_output_tokens, temperature, top_p
// `previous_response_id` is resolved from the answers this server gave (ResponseMemory), so a
// client that sends only the new items still gets the whole conversation. Tools and items the
// policy cannot use (namespace, web_search, custom tools, local shell calls, …) are left out and
// counted; images and files are refused with a 400.
import { OpenClawError } from '../../errors/index.ts';
import type { ChatMessage } from '../../engines/types.ts';
import { toOpenAIError } from '../../errors/index.ts';
import { contentText } from '../../sessions/index.ts';
import {
  badField,
  functionTool,
  isObject,
  list,
  object,
  requestObject,
  optionalBoolean,
  optionalNumber,
  optionalString,
  string,
  textOfBlocks,
  type Json,
} from './fields.ts';
import type { CanonicalRequest, WireProtocol } from './types.ts';
import { bearerToken } from '../headers.ts';
import { ResponseMemory, renderResponse, ResponsesStream, decodeReasoning, type ResponsesState } from './responses-render.ts';

const TEXT_PARTS: ReadonlySet<string> = new Set(['input_text', 'output_text', 'text']);
const MEDIA_PARTS: ReadonlySet<string> = new Set(['input_image', 'input_file', 'input_audio']);
const ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'developer']);
/** Items of other agents' tools: kept in the client's history, left out of the policy's prompt. */
const FOREIGN_ITEMS: ReadonlySet<string> = new Set([
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'image_generation_call',
  'code_interpreter_call',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'item_reference',
  'compaction',
  'compaction_summary',
  'tool_search_call',
  'tool_search_output',
]);
const IGNORED_FIELDS = ['metadata', 'user', 'safety_identifier', 'service_tier', 'truncation', 'conversation', 'prompt', 'background'];

function partsText(v: unknown, param: string, ignored: string[]): string {
  if (typeof v === 'string') return v;
  return textOfBlocks(list(v, param), param, TEXT_PARTS, (type, path) => {
    if (MEDIA_PARTS.has(type))
      throw badField(path, `${type} parts are not supported: this policy reads text only. Send the content as text.`);
    if (type === 'refusal') return void ignored.push('refusal');
    throw badField(`${path}.type`, `expected "input_text" or "output_text", got "${type}"`);
  }).join('\n\n');
}

/** Builds chat messages from Responses items, keeping the function_call ids seen so far. */
class ItemReader {
  readonly messages: ChatMessage[];
  private readonly callIds = new Set<string>();
  private reasoning = '';

  constructor(
    history: ChatMessage[],
    private readonly ignored: string[],
  ) {
    this.messages = [...history];
    for (const m of history) for (const tc of m.tool_calls ?? []) if (typeof tc.id === 'string') this.callIds.add(tc.id);
  }

  item(v: unknown, path: string): void {
    const it = object(v, path);
    const type = it.type === undefined && it.role !== undefined ? 'message' : string(it.type, `${path}.type`);
    if (type === 'message') this.message(it, path);
    else if (type === 'function_call') this.functionCall(it, path);
    else if (type === 'function_call_output') this.functionOutput(it, path);
    else if (type === 'reasoning') this.reasoningItem(it, path);
    else if (FOREIGN_ITEMS.has(type)) this.ignored.push(type);
    else throw badField(`${path}.type`, `unknown input item type "${type}"`);
  }

  private message(it: Json, path: string): void {
    const role = string(it.role, `${path}.role`);
    if (!ROLES.has(role)) throw badField(`${path}.role`, `expected "user", "assistant", "system" or "developer", got "${role}"`);
    if (it.content === undefined) throw badField(`${path}.content`, 'required: a string or a list of input_text / output_text parts');
    const text = partsText(it.content, `${path}.content`, this.ignored);
    if (role !== 'assistant') return void this.messages.push({ role, content: text });
    const m: ChatMessage = { role: 'assistant', content: text };
    this.takeReasoning(m);
    this.messages.push(m);
  }

  private functionCall(it: Json, path: string): void {
    const callId = string(it.call_id, `${path}.call_id`);
    const name = string(it.name, `${path}.name`);
    const args = it.arguments === undefined ? '{}' : string(it.arguments, `${path}.arguments`);
    const last = this.messages.at(-1);
    // A function_call right after the assistant's message (or another call) belongs to that message.
    const owner = last?.role === 'assistant' ? last : undefined;
    const call = { id: callId, type: 'function', function: { name, arguments: args } };
    if (owner) {
      owner.tool_calls = [...(owner.tool_calls ?? []), call];
      if (owner.content === '') owner.content = null;
      this.takeReasoning(owner);
    } else {
      const m: ChatMessage = { role: 'assistant', content: null, tool_calls: [call] };
      this.takeReasoning(m);
      this.messages.push(m);
    }
    this.callIds.add(callId);
  }

  private functionOutput(it: Json, path: string): void {
    const callId = string(it.call_id, `${path}.call_id`);
    if (!this.callIds.has(callId)) throw badField(`${path}.call_id`, `no function_call with call_id "${callId}" comes before this output`);
    if (it.output === undefined) throw badField(`${path}.output`, 'required: the tool output, a string or a list of input_text parts');
    this.messages.push({ role: 'tool', tool_call_id: callId, content: partsText(it.output, `${path}.output`, this.ignored) });
  }

  private reasoningItem(it: Json, path: string): void {
    const fromParts = (v: unknown, p: string) => (v === undefined || v === null ? '' : contentText(list(v, p) as Json[]));
    const own = decodeReasoning(optionalString(it.encrypted_content, `${path}.encrypted_content`));
    this.reasoning += own ?? (fromParts(it.content, `${path}.content`) || fromParts(it.summary, `${path}.summary`));
  }

  private takeReasoning(m: ChatMessage): void {
    if (this.reasoning === '') return;
    m.reasoning_content = `${typeof m.reasoning_content === 'string' ? m.reasoning_content : ''}${this.reasoning}`;
    this.reasoning = '';
  }
}

function chatTools(v: unknown, ignored: string[]): Json[] | undefined {
  if (v === undefined || v === null) return undefined;
  const tools = list(v, 'tools');
  const out: Json[] = [];
  for (let k = 0; k < tools.length; k++) {
    const t = object(tools[k], `tools[${k}]`);
    const type = string(t.type, `tools[${k}].type`);
    if (type !== 'function') {
      ignored.push(`tool:${type}`);
      continue;
    }
    out.push(functionTool(t, `tools[${k}]`, 'parameters'));
  }
  return out;
}

function chatToolChoice(v: unknown): unknown {
  if (v === undefined || v === null) return undefined;
  if (v === 'auto' || v === 'none' || v === 'required') return v;
  if (typeof v === 'string')
    throw badField('tool_choice', `expected "auto", "none", "required" or {"type":"function","name":…}, got "${v}"`);
  const c = object(v, 'tool_choice');
  if (c.type === 'function') return { type: 'function', function: { name: string(c.name, 'tool_choice.name') } };
  return undefined; // allowed_tools, hosted tool choices: the policy picks among its function tools
}

/** What `previous_response_id` brings back: the conversation without its instructions. */
function history(memory: ResponseMemory, v: unknown): ChatMessage[] {
  const id = optionalString(v, 'previous_response_id');
  if (id === undefined) return [];
  const found = memory.get(id);
  if (found === undefined)
    throw new OpenClawError(
      'invalid_request',
      `Previous response with id '${id}' not found: this server keeps the last ${memory.capacity} responses stored with store: true, in memory (a restart forgets them). Send the whole conversation in 'input' instead.`,
      { param: 'previous_response_id', code: 'previous_response_not_found' },
    );
  return found;
}

/** Parses a Responses body into the canonical turn. */
export function parseResponsesRequest(input: unknown, memory: ResponseMemory): CanonicalRequest {
  const body = requestObject(input);
  const ignored: string[] = [];
  const model = string(body.model, 'model');
  const reader = new ItemReader(history(memory, body.previous_response_id), ignored);
  if (body.input === undefined) throw badField('input', 'required: a string or a list of input items');
  if (typeof body.input === 'string') reader.item({ role: 'user', content: body.input }, 'input');
  else list(body.input, 'input').forEach((it, i) => reader.item(it, `input[${i}]`));
  if (reader.messages.length === 0) throw badField('input', 'expected at least one message or item, got none');
  const instructions = optionalString(body.instructions, 'instructions');
  const include = body.include === undefined || body.include === null ? [] : list(body.include, 'include');
  const state: ResponsesState = {
    model,
    conversation: reader.messages,
    store: optionalBoolean(body.store, 'store') !== false,
    encryptReasoning: include.includes('reasoning.encrypted_content'),
    echo: {
      instructions: instructions ?? null,
      previous_response_id: body.previous_response_id ?? null,
      tools: Array.isArray(body.tools) ? body.tools : [],
      tool_choice: body.tool_choice ?? 'auto',
      parallel_tool_calls: body.parallel_tool_calls ?? true,
      temperature: body.temperature ?? null,
      top_p: body.top_p ?? null,
      max_output_tokens: body.max_output_tokens ?? null,
      reasoning: body.reasoning ?? null,
      store: body.store ?? true,
      prompt_cache_key: body.prompt_cache_key ?? null,
    },
  };
  const chat: Json = {
    model,
    messages: instructions !== undefined ? [{ role: 'system', content: instructions }, ...reader.messages] : reader.messages,
    stream: optionalBoolean(body.stream, 'stream') === true,
    stream_options: { include_usage: true },
  };
  const maxTokens = optionalNumber(body.max_output_tokens, 'max_output_tokens', { min: 1, int: true });
  if (maxTokens !== undefined) chat.max_tokens = maxTokens;
  const temperature = optionalNumber(body.temperature, 'temperature', { min: 0, max: 2 });
  if (temperature !== undefined) chat.temperature = temperature;
  const topP = optionalNumber(body.top_p, 'top_p', { min: 0, max: 1, exclusiveMin: true });
  if (topP !== undefined) chat.top_p = topP;
  const tools = chatTools(body.tools, ignored);
  if (tools !== undefined && tools.length > 0) chat.tools = tools;
  const choice = chatToolChoice(body.tool_choice);
  if (choice !== undefined) chat.tool_choice = choice;
  const parallel = optionalBoolean(body.parallel_tool_calls, 'parallel_tool_calls');
  if (parallel !== undefined && tools !== undefined && tools.length > 0) chat.parallel_tool_calls = parallel;
  const key = optionalString(body.prompt_cache_key, 'prompt_cache_key');
  if (key !== undefined) chat.prompt_cache_key = key;
  if (isObject(body.reasoning) && (body.reasoning.effort === 'none' || body.reasoning.effort === 'minimal'))
    chat.chat_template_kwargs = { enable_thinking: false };
  if (isObject(body.text) && isObject(body.text.format) && body.text.format.type !== 'text') ignored.push('text.format');
  for (const f of IGNORED_FIELDS) if (body[f] !== undefined && body[f] !== null) ignored.push(f);
  return { chat, model, ignored, state };
}

/** The OpenAI Responses protocol; its memory of stored responses lives as long as the gateway. */
export function openaiResponses(memory = new ResponseMemory()): WireProtocol {
  return {
    name: 'openai-responses',
    path: '/v1/responses',
    apiKey: (headers) => bearerToken(headers),
    parse: (body) => parseResponsesRequest(body, memory),
    render: (_json, acc, ctx) => renderResponse(acc, ctx.canonical.state as ResponsesState, memory, ctx.sessionId),
    stream: (ctx) => new ResponsesStream(ctx.canonical.state as ResponsesState, memory, ctx.sessionId),
    forgetSession: (sessionId) => memory.forgetSession(sessionId),
    error: (err) => toOpenAIError(err),
  };
}
