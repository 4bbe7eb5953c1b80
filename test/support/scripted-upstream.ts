// A scripted OpenAI-compatible upstream on loopback for tests and benchmarks: a real HTTP server
// that answers chat completions (streamed or not) with text or tool calls, per-token log-probs and
// vLLM-style token ids, and that can be told to fail in each way the gateway must explain.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the next request(s) should get. */
export type Behaviour =
  | { kind: 'text'; text?: string; tokens?: string[] }
  | { kind: 'tool_call'; name: string; arguments: string; id?: string }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'no_choices' }
  | { kind: 'cut_stream'; afterTokens: number }
  | { kind: 'error_mid_stream'; afterTokens: number }
  | { kind: 'slow_first_token'; delayMs: number; text?: string }
  | { kind: 'hang' }
  /** Non-streamed: 200 headers and half a JSON body, then the connection is destroyed. */
  | { kind: 'cut_body' };

export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** The body as it came, for tests of how the gateway serialised it. */
  text: string;
}

/** Token id of a piece of text in this fake vocabulary (stable, for assertions). */
export function fakeTokenId(piece: string): number {
  let h = 7;
  for (const ch of piece) h = (h * 31 + ch.codePointAt(0)!) % 50_000;
  return 1000 + h;
}

/** The prompt ids the upstream returns for a request body with `promptCharsPerToken` set. */
export function scriptedPromptIds(body: Record<string, unknown>, charsPerToken: number): number[] {
  const chars = JSON.stringify(body.messages ?? []).length + JSON.stringify(body.tools ?? []).length;
  return Array.from({ length: Math.ceil(chars / charsPerToken) }, (_, i) => 1000 + ((i * 7919) % 50_000));
}

function splitTokens(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [text];
}

/** A `rollout:` config tree for a policy served by a ScriptedUpstream (short deadlines, no retries). */
export function scriptedRollout(url: string): Record<string, unknown> {
  return { provider: 'openai_compatible', base_url: url, model_id: 'p', timeout_s: 5, first_token_timeout_s: 2, max_retries: 0 };
}

export class ScriptedUpstream {
  readonly received: ReceivedRequest[] = [];
  private readonly queue: Behaviour[] = [];
  /** Used when the queue is empty. */
  fallback: Behaviour | ((req: ReceivedRequest) => Behaviour) = { kind: 'text' };
  private server?: Server;
  url = '';
  /** Delay between streamed tokens (ms). */
  tokenDelayMs = 0;
  /** Streams: how long the response stays open after `data: [DONE]` (some servers end it late). */
  lingerAfterDoneMs = 0;
  /**
   * When set, only this exact path serves chat completions; any other path gets a plain 404
   * (like vLLM/FastAPI), so a wrong base URL can be shown.
   */
  chatPath?: string;
  /** Set false to keep request bodies out of `received` (benchmarks). */
  keepRequests = true;
  /**
   * When set, `prompt_token_ids` holds one id per this many characters of the request's messages
   * and tools, as an engine returns the whole prompt's ids (benchmarks with real-sized prompts);
   * otherwise it is [1, 2, 3].
   */
  promptCharsPerToken?: number;
  /**
   * Streams: wait for 'drain' whenever the socket's buffer is full, as a real server does, so a
   * caller that stops reading holds the generation (tests of back-pressure read `streamedTokens`).
   */
  respectBackPressure = false;
  /** Tokens written so far by the latest streamed answer. */
  streamedTokens = 0;
  /** Chat requests whose connection closed before their answer was complete (the caller aborted). */
  readonly closedEarly: ReceivedRequest[] = [];
  private closeWaiters: Array<(r: ReceivedRequest) => void> = [];

  /** Queues behaviours for the next requests, in order. */
  script(...b: Behaviour[]): this {
    this.queue.push(...b);
    return this;
  }

  /** Resolves with the next chat request whose connection closes before its answer was complete. */
  nextEarlyClose(): Promise<ReceivedRequest> {
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  /** Starts listening on loopback; `port` 0 picks a free one (pass the old port to restart after `stop`). */
  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted-model', object: 'model' }] }));
      return;
    }
    let body: Record<string, unknown> = {};
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      body = chunks.length ? JSON.parse(text) : {};
    } catch {
      res.writeHead(400).end('{"error":{"message":"bad json"}}');
      return;
    }
    const received = { path, headers: req.headers, body, text };
    if (this.keepRequests) this.received.push(received);
    if (this.chatPath !== undefined && path !== this.chatPath) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'Not Found' }));
      return;
    }
    if (!path.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${path}` } }));
      return;
    }
    res.on('close', () => {
      if (res.writableFinished) return;
      this.closedEarly.push(received);
      for (const w of this.closeWaiters.splice(0)) w(received);
    });
    const b = this.queue.shift() ?? (typeof this.fallback === 'function' ? this.fallback(received) : this.fallback);
    await this.answer(b, body, res);
  }

  private promptIds(body: Record<string, unknown>): number[] {
    return this.promptCharsPerToken === undefined ? [1, 2, 3] : scriptedPromptIds(body, this.promptCharsPerToken);
  }

  private async answer(b: Behaviour, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    if (b.kind === 'hang') return; // never answers; the gateway's timeouts must cope
    if (b.kind === 'status') {
      res.writeHead(b.status, { 'content-type': 'application/json', ...(b.headers ?? {}) });
      res.end(JSON.stringify(b.body ?? { error: { message: `scripted ${b.status}`, type: 'error' } }));
      return;
    }
    if (b.kind === 'no_choices') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', detail: 'this is not a chat completion' }));
      return;
    }
    if (b.kind === 'cut_body') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assis');
      setTimeout(() => res.destroy(), 20);
      return;
    }
    const stream = body.stream === true;
    const withIds = body.return_token_ids === true;
    const withLogprobs = body.logprobs === true;
    const model = String(body.model ?? 'scripted-model');
    const id = `chatcmpl-${Math.random().toString(36).slice(2, 10)}`;
    const isTool = b.kind === 'tool_call';
    const text =
      b.kind === 'text'
        ? (b.text ?? 'Hello from the scripted upstream.')
        : b.kind === 'slow_first_token'
          ? (b.text ?? 'slow hello')
          : b.kind === 'tool_call'
            ? ''
            : 'partial answer that will be cut off here';
    const pieces =
      b.kind === 'text' && b.tokens ? b.tokens : isTool ? [`<tool_call>${b.name}`, b.arguments, '</tool_call>'] : splitTokens(text);
    const lp = (i: number) => -0.05 - 0.01 * i;
    if (!stream) {
      const choice: Record<string, unknown> = {
        index: 0,
        message: isTool
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: b.id ?? 'call_1', type: 'function', function: { name: b.name, arguments: b.arguments } }],
            }
          : { role: 'assistant', content: pieces.join('') },
        finish_reason: isTool ? 'tool_calls' : 'stop',
        logprobs: withLogprobs
          ? { content: pieces.map((t, i) => ({ token: t, logprob: lp(i), bytes: [...Buffer.from(t)], top_logprobs: [] })) }
          : null,
      };
      if (withIds) choice.token_ids = pieces.map(fakeTokenId);
      if (b.kind === 'slow_first_token') await sleep(b.delayMs);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created: 1,
          model,
          choices: [choice],
          usage: { prompt_tokens: 10, completion_tokens: pieces.length, total_tokens: 10 + pieces.length },
          ...(withIds ? { prompt_token_ids: this.promptIds(body) } : {}),
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (obj: unknown) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
    this.streamedTokens = 0;
    const chunk = (delta: Record<string, unknown>, i: number | null, finish: string | null, extra: Record<string, unknown> = {}) => ({
      id,
      object: 'chat.completion.chunk',
      created: 1,
      model,
      ...extra,
      choices: [
        {
          index: 0,
          delta,
          finish_reason: finish,
          logprobs:
            withLogprobs && i !== null
              ? { content: [{ token: pieces[i], logprob: lp(i), bytes: [...Buffer.from(pieces[i])], top_logprobs: [] }] }
              : null,
          ...(withIds && i !== null ? { token_ids: [fakeTokenId(pieces[i])] } : {}),
        },
      ],
    });
    if (b.kind === 'slow_first_token') await sleep(b.delayMs);
    send(chunk({ role: 'assistant', content: '' }, null, null, withIds ? { prompt_token_ids: this.promptIds(body) } : {}));
    for (let i = 0; i < pieces.length; i++) {
      if ((b.kind === 'cut_stream' || b.kind === 'error_mid_stream') && i === b.afterTokens) {
        if (b.kind === 'error_mid_stream') {
          send({ error: { message: 'scripted engine failure mid-stream', type: 'server_error' } });
          res.end();
        } else setTimeout(() => res.destroy(), 20); // let the chunks so far reach the caller first
        return;
      }
      if (this.tokenDelayMs > 0) await sleep(this.tokenDelayMs);
      if (res.destroyed) return; // the caller went away: stop generating
      if (isTool) {
        const delta =
          i === 0
            ? { tool_calls: [{ index: 0, id: b.id ?? 'call_1', type: 'function', function: { name: b.name, arguments: '' } }] }
            : i === 1
              ? { tool_calls: [{ index: 0, function: { arguments: b.arguments } }] }
              : {};
        send(chunk(delta, i, null));
      } else if (!send(chunk({ content: pieces[i] }, i, null)) && this.respectBackPressure) {
        await new Promise((r) => {
          res.once('drain', r);
          res.once('close', r);
        });
      }
      this.streamedTokens = i + 1;
    }
    send(chunk({}, null, isTool ? 'tool_calls' : 'stop'));
    const so = body.stream_options as { include_usage?: boolean } | undefined;
    if (so?.include_usage)
      send({
        id,
        object: 'chat.completion.chunk',
        created: 1,
        model,
        choices: [],
        usage: { prompt_tokens: 10, completion_tokens: pieces.length, total_tokens: 10 + pieces.length },
      });
    if (this.lingerAfterDoneMs <= 0) return void res.end('data: [DONE]\n\n');
    res.write('data: [DONE]\n\n');
    await sleep(this.lingerAfterDoneMs);
    res.end();
  }
}

// Unref: a scripted delay still pending when a test ends must not keep the test process alive.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
