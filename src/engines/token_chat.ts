// A ChatChannel over any token-level PolicyEngine (the embedded engine, in-process or in a worker):
// renders the chat template, generates with per-token log-probs, and answers in OpenAI's chat
// completion format — streamed chunk by chunk as tokens are sampled — including the token ids and
// the policy version, so the gateway records in-process turns exactly like vLLM ones.
import { randomUUID } from 'node:crypto';
import { OpenClawError, invalidRequest } from '../errors/index.ts';
import type { ChatChannel, ChatMessage, ChatStreamEvent, PolicyEngine } from './types.ts';

/** Chat template and detokenizer of the engine's model. */
export interface ChatTokenizer {
  /** Prompt ids of the messages followed by the assistant generation prompt. */
  encodeChat(messages: ChatMessage[], tools?: unknown[]): number[];
  decode(ids: number[]): string;
  /** Ids that end an assistant turn (e.g. `<|im_end|>`). */
  stopTokenIds: number[];
  /** Text of a single token, for `logprobs.content[].token`. */
  tokenText(id: number): string;
}

/** Settings of the channel. */
export interface TokenChatOptions {
  modelId: string;
  defaultTemperature: number;
  defaultMaxTokens: number;
  topP?: number;
  contextLength: number;
}

type Body = Record<string, unknown>;

/** Incremental detokenisation that never splits a multi-byte character. */
class TextStream {
  private ids: number[] = [];
  private emitted = '';
  constructor(private readonly tok: ChatTokenizer) {}
  push(id: number): string {
    this.ids.push(id);
    const text = this.tok.decode(this.ids);
    if (text.endsWith('\uFFFD')) return ''; // an incomplete UTF-8 sequence: wait for its other bytes
    const delta = text.slice(this.emitted.length);
    this.emitted = text;
    return delta;
  }
  flush(): string {
    const text = this.tok.decode(this.ids);
    const delta = text.slice(this.emitted.length);
    this.emitted = text;
    return delta;
  }
}

/** Serves OpenAI chat completions from a PolicyEngine. */
export class TokenChatChannel implements ChatChannel {
  readonly kind: string;
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
    if (typeof body.n === 'number' && body.n > 1) throw invalidRequest('n > 1 is not supported by the embedded engine; send one request per answer.', 'n');
    const messages = body.messages as ChatMessage[];
    const promptIds = this.tok.encodeChat(messages, body.tools as unknown[] | undefined);
    const asked = (body.max_completion_tokens ?? body.max_tokens) as number | null | undefined;
    const maxTokens = typeof asked === 'number' ? asked : this.opts.defaultMaxTokens;
    if (promptIds.length + 1 > this.opts.contextLength) {
      throw new OpenClawError('context_length',
        `This model's maximum context length is ${this.opts.contextLength} tokens, but the messages are ${promptIds.length} tokens long. Shorten the conversation (or the system prompt).`,
        { param: 'messages', code: 'context_length_exceeded' });
    }
    const temperature = typeof body.temperature === 'number' ? body.temperature : this.opts.defaultTemperature;
    const topP = typeof body.top_p === 'number' ? body.top_p : this.opts.topP;
    const seed = typeof body.seed === 'number' ? body.seed : undefined;
    return { promptIds, maxTokens: Math.min(maxTokens, this.opts.contextLength - promptIds.length), temperature, topP, seed };
  }

  async complete(body: Body, signal?: AbortSignal): Promise<Body> {
    const p = this.prepare(body);
    const r = await this.engine.generate({ ...p, stopTokenIds: this.tok.stopTokenIds, signal });
    const ids = r.tokenIds.filter((id) => !this.tok.stopTokenIds.includes(id));
    return {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: this.opts.modelId,
      policy_version: r.version,
      prompt_token_ids: p.promptIds,
      choices: [{
        index: 0,
        message: { role: 'assistant', content: this.tok.decode(ids) },
        finish_reason: r.finishReason,
        logprobs: { content: r.tokenIds.map((id, i) => ({ token: this.tok.tokenText(id), logprob: r.logprobs[i], bytes: null, top_logprobs: [] })) },
        token_ids: r.tokenIds,
      }],
      usage: { prompt_tokens: p.promptIds.length, completion_tokens: r.tokenIds.length, total_tokens: p.promptIds.length + r.tokenIds.length },
    };
  }

  async stream(body: Body, signal?: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>> {
    const p = this.prepare(body);
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const queue: Array<ChatStreamEvent | Error | null> = [];
    let notify: (() => void) | undefined;
    const push = (item: ChatStreamEvent | Error | null) => { queue.push(item); notify?.(); };
    const event = (chunk: Body): ChatStreamEvent => ({ raw: JSON.stringify(chunk), chunk });
    const base = { id, object: 'chat.completion.chunk', created, model: this.opts.modelId };
    const text = new TextStream(this.tok);
    push(event({ ...base, prompt_token_ids: p.promptIds, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, logprobs: null }] }));
    const stops = this.tok.stopTokenIds;
    this.engine
      .generate({ ...p, stopTokenIds: stops, signal }, (tokenId, logprob) => {
        const delta = stops.includes(tokenId) ? '' : text.push(tokenId);
        push(event({ ...base, choices: [{ index: 0, delta: { content: delta }, finish_reason: null, token_ids: [tokenId], logprobs: { content: [{ token: this.tok.tokenText(tokenId), logprob, bytes: null, top_logprobs: [] }] } }] }));
      })
      .then((r) => {
        const rest = text.flush();
        push(event({ ...base, policy_version: r.version, choices: [{ index: 0, delta: rest ? { content: rest } : {}, finish_reason: r.finishReason, logprobs: null }] }));
        if (includeUsage) push(event({ ...base, choices: [], usage: { prompt_tokens: p.promptIds.length, completion_tokens: r.tokenIds.length, total_tokens: p.promptIds.length + r.tokenIds.length } }));
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

  async health(): Promise<{ ok: boolean; detail: string }> {
    return { ok: true, detail: `${this.engine.kind} engine in-process, policy version ${this.engine.version()}` };
  }

  async close(): Promise<void> {
    await this.engine.close();
  }
}
