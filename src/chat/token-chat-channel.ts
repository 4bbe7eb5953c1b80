// A ChatChannel over any token-level PolicyEngine (the embedded engine in-process or in a worker,
// or a remote sampler such as Tinker): renders the chat template, generates with per-token
// log-probs, and answers in OpenAI's chat completion format — streamed chunk by chunk — including
// the token ids and the policy version, so the gateway records these turns exactly like vLLM ones.
// Engines that report each token as it is sampled (onToken) stream live; engines that return the
// whole sequence at once get the same chunks, sent when the sequence arrives. The tokenizer's
// output parser turns the answer text into content, reasoning_content and tool_calls.
import { randomUUID } from 'node:crypto';
import { OpenClawError, invalidRequest } from '../errors/index.ts';
import { PlainOutputParser, type OutputDelta, type OutputParser, type ParsedToolCall } from './output-parser.ts';
import { jsonObjectValue, type JsonObject } from '../raw-json/json-text.ts';
import type { ChatChannel, ChatMessage, ChatStreamEvent, GenerateResult, PolicyEngine } from '../engines/types.ts';

/** Chat template and detokenizer of the engine's model. */
export interface ChatTokenizer {
  /** Prompt ids of the messages followed by the assistant generation prompt. */
  encodeChat(messages: ChatMessage[], tools?: unknown[]): number[];
  decode(ids: number[]): string;
  /** Ids that end an assistant turn (e.g. `<|im_end|>`). */
  stopTokenIds: number[];
  /** Text of a single token, for `logprobs.content[].token`. */
  tokenText(id: number): string;
  /** A parser of one answer generated after `promptIds` (default: all text is content). */
  outputParser?(promptIds: readonly number[]): OutputParser;
}

/** Settings of the channel. */
export interface TokenChatOptions {
  modelId: string;
  defaultTemperature: number;
  defaultMaxTokens: number;
  topP?: number;
  contextLength: number;
  /** Told about answers the parser could not fully read (e.g. malformed tool-call JSON). */
  onWarning?: (message: string) => void;
}

/** Counters of the channel (for /metrics and tests). */
export interface TokenChatCounters {
  /** Tool-call blocks whose JSON could not be read; their text was kept as content. */
  malformed_tool_calls: number;
}

type Body = Record<string, unknown>;

/** Tokens per streamed chunk when an engine returns the whole sequence at once. */
export const WHOLE_SEQUENCE_CHUNK_TOKENS = 16;

/**
 * Incremental detokenisation that never splits a multi-byte character. Each step decodes a window
 * that starts at the previous step's ids (so decoders that treat a leading token specially, like
 * SentencePiece's leading space, still see left context) instead of the whole answer, keeping a
 * long answer linear in its length.
 */
class TextStream {
  private ids: number[] = [];
  /** Start of the window decoded each step. */
  private prefixOffset = 0;
  /** End of the ids whose text was emitted. */
  private readOffset = 0;
  constructor(private readonly tok: ChatTokenizer) {}
  push(...ids: number[]): string {
    for (const id of ids) this.ids.push(id);
    return this.next(false);
  }
  flush(): string {
    return this.next(true);
  }
  private next(final: boolean): string {
    const emitted = this.tok.decode(this.ids.slice(this.prefixOffset, this.readOffset));
    const text = this.tok.decode(this.ids.slice(this.prefixOffset));
    // An incomplete UTF-8 sequence: wait for its other bytes (unless no more are coming).
    if (!final && text.endsWith('\uFFFD')) return '';
    if (text.length <= emitted.length && !final) return '';
    this.prefixOffset = this.readOffset;
    this.readOffset = this.ids.length;
    return text.slice(emitted.length);
  }
}

/** One answer's text, token by token: detokenised, then parsed into message fields. */
class AnswerText {
  private readonly text: TextStream;
  readonly toolCalls: ParsedToolCall[] = [];
  constructor(
    private readonly tok: ChatTokenizer,
    private readonly parser: OutputParser,
  ) {
    this.text = new TextStream(tok);
  }
  /** The delta of generated tokens (stop tokens add ids and a log-prob, never text). */
  tokens(ids: number[]): Body {
    const textIds = ids.filter((id) => !this.tok.stopTokenIds.includes(id));
    return this.delta(this.parser.push(textIds.length > 0 ? this.text.push(...textIds) : ''));
  }
  /** What was held back, once generation ended. */
  finish(): Body {
    const last = mergeDeltas(this.parser.push(this.text.flush()), this.parser.finish());
    if (last.content === '') delete last.content; // the final chunk of a plain answer is `{}` when nothing was held
    return this.delta(last);
  }
  /** OpenAI's delta shape; tool calls are numbered across the whole answer. */
  private delta(d: OutputDelta): Body {
    const out: Body = {};
    if (d.content !== undefined) out.content = d.content;
    if (d.reasoning !== undefined) out.reasoning_content = d.reasoning;
    if (d.toolCalls !== undefined && d.toolCalls.length > 0) {
      out.tool_calls = d.toolCalls.map((call) => ({ index: this.toolCalls.push(call) - 1, ...call }));
    }
    return out;
  }
}

function join(a: string | undefined, b: string | undefined): string | undefined {
  return a === undefined ? b : b === undefined ? a : a + b;
}

/** Serves OpenAI chat completions from a PolicyEngine. */
export class TokenChatChannel implements ChatChannel {
  readonly kind: string;
  readonly counters: TokenChatCounters = { malformed_tool_calls: 0 };
  constructor(
    private readonly engine: PolicyEngine,
    private readonly tok: ChatTokenizer,
    private readonly opts: TokenChatOptions,
  ) {
    this.kind = `${engine.kind}-chat`;
  }

  version(): number {
    return this.engine.version();
  }

  private prepare(body: Body): { promptIds: number[]; maxTokens: number; temperature: number; topP?: number; seed?: number } {
    if (typeof body.n === 'number' && body.n > 1)
      throw invalidRequest(`n > 1 is not supported by the ${this.engine.kind} engine; send one request per answer.`, 'n');
    const messages = body.messages as ChatMessage[];
    const promptIds = this.tok.encodeChat(messages, body.tools as unknown[] | undefined);
    const asked = (body.max_completion_tokens ?? body.max_tokens) as number | null | undefined;
    const maxTokens = typeof asked === 'number' ? asked : this.opts.defaultMaxTokens;
    if (promptIds.length + 1 > this.opts.contextLength) {
      throw new OpenClawError(
        'context_length',
        `This model's maximum context length is ${this.opts.contextLength} tokens, but the messages are ${promptIds.length} tokens long. Shorten the conversation (or the system prompt).`,
        { param: 'messages', code: 'context_length_exceeded' },
      );
    }
    const temperature = typeof body.temperature === 'number' ? body.temperature : this.opts.defaultTemperature;
    const topP = typeof body.top_p === 'number' ? body.top_p : this.opts.topP;
    const seed = typeof body.seed === 'number' ? body.seed : undefined;
    return { promptIds, maxTokens: Math.min(maxTokens, this.opts.contextLength - promptIds.length), temperature, topP, seed };
  }

  async complete(request: JsonObject, signal?: AbortSignal): Promise<Body> {
    const p = this.prepare(jsonObjectValue(request));
    const r = await this.engine.generate({ ...p, stopTokenIds: this.tok.stopTokenIds, signal });
    const ids = r.tokenIds.filter((id) => !this.tok.stopTokenIds.includes(id));
    const parser = this.parserFor(p.promptIds);
    const parsed = mergeDeltas(parser.push(this.tok.decode(ids)), parser.finish());
    this.noteMalformed(parser);
    const toolCalls = parsed.toolCalls ?? [];
    const message: Body = {
      role: 'assistant',
      content: toolCalls.length > 0 && (parsed.content ?? '') === '' ? null : (parsed.content ?? ''),
    };
    if (parsed.reasoning !== undefined) message.reasoning_content = parsed.reasoning;
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    return {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: this.opts.modelId,
      policy_version: r.version,
      prompt_token_ids: p.promptIds,
      choices: [
        {
          index: 0,
          message,
          finish_reason: finishReason(r, toolCalls.length),
          logprobs: {
            content: r.tokenIds.map((id, i) => ({ token: this.tok.tokenText(id), logprob: r.logprobs[i], bytes: null, top_logprobs: [] })),
          },
          token_ids: r.tokenIds,
        },
      ],
      usage: usageOf(p.promptIds, r),
    };
  }

  async stream(request: JsonObject, signal?: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>> {
    const body = jsonObjectValue(request);
    const p = this.prepare(body);
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const queue: Array<ChatStreamEvent | Error | null> = [];
    let notify: (() => void) | undefined;
    const push = (item: ChatStreamEvent | Error | null) => {
      queue.push(item);
      notify?.();
    };
    const event = (chunk: Body): ChatStreamEvent => ({ raw: JSON.stringify(chunk), chunk });
    const base = { id, object: 'chat.completion.chunk', created, model: this.opts.modelId };
    const parser = this.parserFor(p.promptIds);
    const answer = new AnswerText(this.tok, parser);
    push(
      event({
        ...base,
        prompt_token_ids: p.promptIds,
        choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, logprobs: null }],
      }),
    );
    let sent = 0;
    const sendTokens = (ids: number[], logprobs: number[]) => {
      sent += ids.length;
      const content = ids.map((tokenId, i) => ({
        token: this.tok.tokenText(tokenId),
        logprob: logprobs[i],
        bytes: null,
        top_logprobs: [],
      }));
      push(
        event({ ...base, choices: [{ index: 0, delta: answer.tokens(ids), finish_reason: null, token_ids: ids, logprobs: { content } }] }),
      );
    };
    this.engine
      .generate({ ...p, stopTokenIds: this.tok.stopTokenIds, signal }, (tokenId, logprob) => sendTokens([tokenId], [logprob]))
      .then((r) => {
        // A whole-sequence engine reported no tokens on the way: they go out now, a few per chunk
        // (one chunk per token would cost a decode and a JSON chunk each, for no client benefit).
        for (let i = sent; i < r.tokenIds.length; i += WHOLE_SEQUENCE_CHUNK_TOKENS) {
          sendTokens(r.tokenIds.slice(i, i + WHOLE_SEQUENCE_CHUNK_TOKENS), r.logprobs.slice(i, i + WHOLE_SEQUENCE_CHUNK_TOKENS));
        }
        const delta = answer.finish();
        this.noteMalformed(parser);
        push(
          event({
            ...base,
            policy_version: r.version,
            choices: [{ index: 0, delta, finish_reason: finishReason(r, answer.toolCalls.length), logprobs: null }],
          }),
        );
        if (includeUsage) push(event({ ...base, choices: [], usage: usageOf(p.promptIds, r) }));
        push(null);
      })
      .catch((err: unknown) => push(err instanceof Error ? err : new Error(String(err))));
    async function* iterate(): AsyncGenerator<ChatStreamEvent> {
      for (;;) {
        while (queue.length === 0) await new Promise<void>((r) => (notify = r));
        const item = queue.shift()!;
        if (item === null) return;
        if (item instanceof Error) throw item;
        yield item;
      }
    }
    return iterate();
  }

  private parserFor(promptIds: readonly number[]): OutputParser {
    return this.tok.outputParser?.(promptIds) ?? new PlainOutputParser();
  }

  private noteMalformed(parser: OutputParser): void {
    const n = parser.malformedToolCalls;
    if (n === 0) return;
    this.counters.malformed_tool_calls += n;
    this.opts.onWarning?.(
      `${n} tool-call block(s) of the answer were not valid {"name", "arguments"} JSON; kept as content text (${this.counters.malformed_tool_calls} so far)`,
    );
  }

  async health(): Promise<{ ok: boolean; detail: string }> {
    // A remote engine (Tinker) knows whether its server answers; an in-process one always does.
    if (this.engine.health) return this.engine.health();
    return { ok: true, detail: `${this.engine.kind} engine, policy version ${this.engine.version()}` };
  }

  async close(): Promise<void> {
    await this.engine.close();
  }
}

/** "tool_calls" when a finished answer called tools, as OpenAI reports it. */
function finishReason(r: GenerateResult, toolCalls: number): string {
  return r.finishReason === 'stop' && toolCalls > 0 ? 'tool_calls' : r.finishReason;
}

function usageOf(promptIds: number[], r: GenerateResult): Body {
  return { prompt_tokens: promptIds.length, completion_tokens: r.tokenIds.length, total_tokens: promptIds.length + r.tokenIds.length };
}

function mergeDeltas(a: OutputDelta, b: OutputDelta): OutputDelta {
  const calls = [...(a.toolCalls ?? []), ...(b.toolCalls ?? [])];
  return {
    content: join(a.content, b.content),
    reasoning: join(a.reasoning, b.reasoning),
    toolCalls: calls.length > 0 ? calls : undefined,
  };
}
