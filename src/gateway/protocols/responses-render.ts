// The policy's answer in OpenAI Responses' shapes: a `response` object with `reasoning`, `message`
// and `function_call` output items, and the streamed events (response.created, .in_progress,
// .output_item.added/.done, .content_part.added/.done, .output_text.delta/.done,
// .reasoning_text.delta/.done, .function_call_arguments.delta/.done, .completed / .incomplete,
// and `error` + response.failed after the first byte), each with its `sequence_number`. Shapes
// follow the `openai` SDK's types (resources/responses/responses.d.ts).
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '../../engines/types.ts';
import { toOpenAIError } from '../../errors/index.ts';
import type { AnswerAccumulator } from '../accumulate.ts';
import { answerBlocks, BlockStream, type AnswerBlock, type BlockSink } from './answer-blocks.ts';
import { namedEvent, type StreamRenderer } from './types.ts';

type Json = Record<string, unknown>;

/** What rendering one request's answer needs from its parse. */
export interface ResponsesState {
  model: string;
  /** The conversation so far (without instructions): remembered with the answer for previous_response_id. */
  conversation: ChatMessage[];
  store: boolean;
  /** `include: ["reasoning.encrypted_content"]`: reasoning items carry their text for the client to send back. */
  encryptReasoning: boolean;
  /** Request fields the response object repeats. */
  echo: Json;
}

/** The conversations of recent stored responses, by response id (least recently used forgotten first). */
export class ResponseMemory {
  private readonly entries = new Map<string, { conversation: ChatMessage[]; sessionId: string }>();
  constructor(readonly capacity = 1000) {}

  get(id: string): ChatMessage[] | undefined {
    const found = this.entries.get(id);
    if (found !== undefined) {
      this.entries.delete(id);
      this.entries.set(id, found);
    }
    return found?.conversation;
  }

  set(id: string, conversation: ChatMessage[], sessionId = ''): void {
    this.entries.set(id, { conversation, sessionId });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Drops every stored response of a session (openclaw-rl forget); returns how many. */
  forgetSession(sessionId: string): number {
    let n = 0;
    for (const [id, e] of this.entries) if (e.sessionId === sessionId && this.entries.delete(id)) n++;
    return n;
  }
}

// The "encrypted" reasoning is ours to read back: the text, marked so a foreign blob is not taken for it.
const REASONING_MARK = 'ocrl1:';

function encodeReasoning(text: string): string {
  return REASONING_MARK + Buffer.from(text, 'utf8').toString('base64');
}

/** The reasoning text of an `encrypted_content` this server wrote; undefined for anyone else's. */
export function decodeReasoning(v: string | undefined): string | undefined {
  return v?.startsWith(REASONING_MARK) ? Buffer.from(v.slice(REASONING_MARK.length), 'base64').toString('utf8') : undefined;
}

const newId = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

function outputItem(b: AnswerBlock, id: string, state: ResponsesState, done: boolean): Json {
  if (b.kind === 'reasoning') {
    const item: Json = { id, type: 'reasoning', summary: [], content: done ? [{ type: 'reasoning_text', text: b.text }] : [] };
    if (state.encryptReasoning && done) item.encrypted_content = encodeReasoning(b.text);
    return item;
  }
  if (b.kind === 'text')
    return {
      id,
      type: 'message',
      role: 'assistant',
      status: done ? 'completed' : 'in_progress',
      content: done ? [outputText(b.text)] : [],
    };
  return {
    id,
    type: 'function_call',
    call_id: b.id,
    name: b.name,
    arguments: done ? b.text : '',
    status: done ? 'completed' : 'in_progress',
  };
}

const outputText = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] });

function usage(acc: AnswerAccumulator): Json {
  const u = acc.usage ?? {};
  const input = typeof u.prompt_tokens === 'number' ? u.prompt_tokens : 0;
  const output = typeof u.completion_tokens === 'number' ? u.completion_tokens : acc.logprobs.length;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

function responseObject(id: string, state: ResponsesState, status: string, output: Json[], acc?: AnswerAccumulator): Json {
  return {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    model: state.model,
    output,
    text: { format: { type: 'text' } },
    truncation: 'disabled',
    metadata: {},
    usage: acc ? usage(acc) : null,
    ...state.echo,
  };
}

const finalStatus = (acc: AnswerAccumulator) => (acc.finishReason === 'length' ? 'incomplete' : 'completed');

function remember(memory: ResponseMemory, state: ResponsesState, id: string, acc: AnswerAccumulator, sessionId: string): void {
  if (state.store) memory.set(id, [...state.conversation, acc.message()], sessionId);
}

/** The whole answer as a Responses `response`. */
export function renderResponse(acc: AnswerAccumulator, state: ResponsesState, memory: ResponseMemory, sessionId = ''): Json {
  const id = newId('resp');
  const prefix = { reasoning: 'rs', text: 'msg', tool: 'fc' } as const;
  const output = answerBlocks(acc).map((b) => outputItem(b, newId(prefix[b.kind]), state, true));
  remember(memory, state, id, acc, sessionId);
  return responseObject(id, state, finalStatus(acc), output, acc);
}

/** The streamed answer as Responses events. */
export class ResponsesStream implements StreamRenderer {
  private readonly id = newId('resp');
  private seq = 0;
  private readonly items: Json[] = [];
  private readonly itemIds: string[] = [];
  private readonly blocks: BlockStream;

  constructor(
    private readonly state: ResponsesState,
    private readonly memory: ResponseMemory,
    private readonly sessionId = '',
  ) {
    const prefix = { reasoning: 'rs', text: 'msg', tool: 'fc' } as const;
    const sink: BlockSink = {
      open: (b, index) => {
        const id = newId(prefix[b.kind]);
        this.itemIds[index] = id;
        let out = this.event('response.output_item.added', { output_index: index, item: outputItem(b, id, state, false) });
        if (b.kind === 'text')
          out += this.event('response.content_part.added', { item_id: id, output_index: index, content_index: 0, part: outputText('') });
        return out;
      },
      delta: (b, index, delta) => {
        const item_id = this.itemIds[index];
        if (b.kind === 'tool') return this.event('response.function_call_arguments.delta', { item_id, output_index: index, delta });
        const type = b.kind === 'text' ? 'response.output_text.delta' : 'response.reasoning_text.delta';
        return this.event(type, { item_id, output_index: index, content_index: 0, delta, ...(b.kind === 'text' ? { logprobs: [] } : {}) });
      },
      close: (b, index) => {
        const item_id = this.itemIds[index];
        const item = outputItem(b, item_id, state, true);
        this.items[index] = item;
        let out = '';
        if (b.kind === 'tool')
          out += this.event('response.function_call_arguments.done', { item_id, output_index: index, name: b.name, arguments: b.text });
        else if (b.kind === 'reasoning')
          out += this.event('response.reasoning_text.done', { item_id, output_index: index, content_index: 0, text: b.text });
        else
          out +=
            this.event('response.output_text.done', { item_id, output_index: index, content_index: 0, text: b.text, logprobs: [] }) +
            this.event('response.content_part.done', { item_id, output_index: index, content_index: 0, part: outputText(b.text) });
        return out + this.event('response.output_item.done', { output_index: index, item });
      },
    };
    this.blocks = new BlockStream(sink, () => newId('call'));
  }

  private event(type: string, data: Json): string {
    return namedEvent(type, { type, sequence_number: this.seq++, ...data });
  }

  start(): string {
    const response = responseObject(this.id, this.state, 'in_progress', []);
    return this.event('response.created', { response }) + this.event('response.in_progress', { response });
  }

  chunk(ev: { chunk: Json }): string {
    return this.blocks.chunk(ev.chunk);
  }

  end(acc: AnswerAccumulator): string {
    const closing = this.blocks.finish();
    const status = finalStatus(acc);
    remember(this.memory, this.state, this.id, acc, this.sessionId);
    const response = responseObject(this.id, this.state, status, this.items.filter(Boolean), acc);
    return closing + this.event(status === 'completed' ? 'response.completed' : 'response.incomplete', { response });
  }

  error(err: unknown): string {
    const e = toOpenAIError(err).body.error;
    const response = {
      ...responseObject(this.id, this.state, 'failed', this.items.filter(Boolean)),
      error: { code: e.code ?? e.type, message: e.message },
    };
    return (
      this.event('error', { code: e.code ?? e.type, message: e.message, param: e.param }) + this.event('response.failed', { response })
    );
  }
}
