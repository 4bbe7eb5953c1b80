// HTTP client for one OpenAI-compatible channel (rollout, judge or doctor checks): one keep-alive
// undici Pool per channel, retries before the first byte within one total deadline, a separate
// first-event timeout for streams, and every failure explained (explain.ts).
import type { Dispatcher } from 'undici';
import { normalizeBaseUrl, openPool, requestWithRetry, type NormalizedBaseUrl } from '../../http/index.ts';
import type { ChatChannel, ChatStreamEvent } from '../types.ts';
import { OpenClawError } from '../../errors/index.ts';
import { jsonObjectText, withMembers, type JsonObject } from '../../raw-json/json-text.ts';
import { parseWithLazyInts } from '../../raw-json/lazy-ints.ts';
import { SseParser } from './sse.ts';
import {
  explainBadBody,
  explainCutStream,
  explainHttpFailure,
  explainNetworkFailure,
  explainNotAStream,
  type ChannelInfo,
} from './explain.ts';

/** Settings of one channel. */
export interface OpenAIChannelOptions {
  channel: string;
  baseUrl: string;
  apiKey?: string;
  model?: string;
  timeoutMs: number;
  firstTokenTimeoutMs: number;
  maxRetries: number;
  connections?: number;
}

type Body = Record<string, unknown>;

/**
 * The one total deadline of a call: retries, waiting and reading the whole answer included. Its
 * signal also aborts when a followed signal (the caller's, a first-token timer) aborts — one
 * controller per call instead of AbortSignal.any, which costs far more per request on Node 20.
 */
interface Deadline {
  signal: AbortSignal;
  at: number;
  /** True once the deadline itself (not a followed signal) aborted the call. */
  readonly timedOut: boolean;
  /** Aborts the call when `signal` aborts, with its reason. */
  follow(signal: AbortSignal | undefined): void;
  /** Aborts the call now, with `reason` (e.g. a first-token timeout). */
  abort(reason: unknown): void;
  /** Stops the timer and the followers once the answer is complete (they would pile up). */
  clear(): void;
}

/** An OpenAI-compatible upstream: chat completions, model list, and raw JSON posts (teacher/judge). */
export class OpenAICompatibleChannel implements ChatChannel {
  readonly kind = 'openai_compatible';
  readonly base: NormalizedBaseUrl;
  readonly info: ChannelInfo;
  /** A keep-alive pool to the upstream, or a proxy agent when HTTP(S)_PROXY applies (http/proxy.ts). */
  private readonly pool: Dispatcher;
  private readonly opts: OpenAIChannelOptions;

  constructor(opts: OpenAIChannelOptions) {
    this.opts = opts;
    this.base = normalizeBaseUrl(opts.baseUrl, `${opts.channel}.base_url`);
    this.info = { channel: opts.channel, url: this.base.url, model: opts.model };
    // undici's own timers are per attempt; the total deadline (an abort signal) is what bounds a
    // call, so these only back it up. Headers must not use the first-token timeout: a non-streamed
    // answer sends its headers only once the whole answer is generated.
    this.pool = openPool(this.base.origin, {
      connections: opts.connections ?? 256,
      keepAliveTimeoutMs: 30_000,
      attemptTimeoutMs: opts.timeoutMs,
    });
  }

  version(): number {
    return 0;
  }

  private headers(stream: boolean): Record<string, string> {
    const h: Record<string, string> = { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json' };
    if (this.opts.apiKey) h.authorization = `Bearer ${this.opts.apiKey}`;
    return h;
  }

  private startDeadline(): Deadline {
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort(new Error('total deadline passed'));
    }, this.opts.timeoutMs);
    timer.unref();
    const followed: Array<{ signal: AbortSignal; onAbort: () => void }> = [];
    return {
      signal: ac.signal,
      at: Date.now() + this.opts.timeoutMs,
      get timedOut() {
        return timedOut;
      },
      abort(reason) {
        ac.abort(reason);
      },
      follow(signal) {
        if (signal === undefined) return;
        if (signal.aborted) return ac.abort(signal.reason);
        const onAbort = () => ac.abort(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        followed.push({ signal, onAbort });
      },
      clear() {
        clearTimeout(timer);
        for (const f of followed.splice(0)) f.signal.removeEventListener('abort', f.onAbort);
      },
    };
  }

  private deadlineError(): OpenClawError {
    return new OpenClawError(
      'upstream_timeout',
      `${this.info.channel} upstream ${this.info.url} did not finish its answer within ${this.opts.timeoutMs} ms (${this.info.channel}.timeout_s, retries included). Is the server overloaded, or is the timeout too small for max_tokens?`,
      { code: 'upstream_timeout' },
    );
  }

  /** Maps an abort caused by the total deadline (and not by the caller) to the deadline error. */
  private mapDeadline(err: unknown, deadline: Deadline): unknown {
    return deadline.timedOut ? this.deadlineError() : err;
  }

  private urlOf(path: string): string {
    return `${path.startsWith('/') ? '' : this.base.prefix + '/'}${path}`;
  }

  /**
   * POSTs JSON with retries before any byte of the answer was used; resolves with a 2xx response
   * whose body is still unread (and still bound to the deadline). Total deadline: `timeoutMs`.
   */
  async post(
    path: string,
    body: JsonObject,
    opts: { stream?: boolean; signal?: AbortSignal; deadline?: Deadline; firstByteBy?: number } = {},
  ): Promise<Dispatcher.ResponseData> {
    const deadline = opts.deadline ?? this.startDeadline();
    // A retry must be able to start before the first-byte deadline too: otherwise the wait itself
    // would turn the upstream's real answer (a 429 with a long retry-after) into a timeout.
    const retryBy = Math.min(deadline.at, opts.firstByteBy ?? Infinity);
    deadline.follow(opts.signal);
    const signal = deadline.signal;
    // A gateway request's messages and tools go out as the text they came in (raw-json/json-text.ts).
    const payload = jsonObjectText(body);
    const url = this.urlOf(path);
    try {
      return await requestWithRetry(
        this.pool,
        { origin: this.base.origin, path: url, method: 'POST', headers: this.headers(opts.stream ?? false), body: payload },
        { maxRetries: this.opts.maxRetries, signal, retryBy },
        {
          failure: (err) => explainNetworkFailure(this.info, err),
          status: (status, text, ctx) => explainHttpFailure(this.info, status, text, { requestUrl: `${this.base.origin}${url}`, ...ctx }),
        },
      );
    } catch (err) {
      if (!opts.deadline) deadline.clear();
      throw this.mapDeadline(err, deadline);
    }
  }

  /** POST returning parsed JSON (by `parse`); a non-JSON 200 is explained as a bad body, a broken one as cut. */
  async postJson(path: string, body: JsonObject, signal?: AbortSignal, parse: (text: string) => Body = JSON.parse): Promise<Body> {
    const deadline = this.startDeadline();
    let text: string;
    try {
      const res = await this.post(path, body, { signal, deadline });
      text = await res.body.text();
    } catch (err) {
      if (err instanceof OpenClawError || signal?.aborted) throw err;
      if (deadline.timedOut) throw this.deadlineError();
      throw explainCutStream(this.info, `the answer body broke off: ${(err as Error).message}`);
    } finally {
      deadline.clear();
    }
    try {
      return parse(text);
    } catch {
      throw explainBadBody(this.info, text);
    }
  }

  async complete(body: JsonObject, signal?: AbortSignal): Promise<Body> {
    const json = await this.postJson('chat/completions', withMembers(body, { stream: false }), signal, parseAnswer);
    // Every choice must be an object: `[null]` would otherwise fail later, as a 500 of our own.
    const choices = json.choices;
    if (
      !Array.isArray(choices) ||
      choices.length === 0 ||
      !choices.every((c) => typeof c === 'object' && c !== null && !Array.isArray(c))
    ) {
      throw explainBadBody(this.info, JSON.stringify(json));
    }
    return json;
  }

  async stream(body: JsonObject, signal?: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>> {
    const deadline = this.startDeadline();
    let noFirstEvent: OpenClawError | undefined;
    const timer = setTimeout(() => {
      noFirstEvent = new OpenClawError(
        'upstream_timeout',
        `${this.info.channel} upstream ${this.info.url} sent no first token within ${this.opts.firstTokenTimeoutMs} ms (${this.info.channel}.first_token_timeout_s)`,
        { code: 'upstream_first_token_timeout' },
      );
      deadline.abort(noFirstEvent);
    }, this.opts.firstTokenTimeoutMs);
    try {
      const res = await this.post('chat/completions', withMembers(body, { stream: true }), {
        stream: true,
        signal,
        deadline,
        firstByteBy: Date.now() + this.opts.firstTokenTimeoutMs,
      });
      const type = String(res.headers['content-type'] ?? '');
      if (/json/i.test(type)) throw explainNotAStream(this.info, type, await res.body.text());
      const events = this.parseEvents(res.body, deadline);
      const first = await events.next();
      return prepend(first, events);
    } catch (err) {
      deadline.clear();
      if (noFirstEvent !== undefined) throw noFirstEvent;
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private async *parseEvents(body: Dispatcher.ResponseData['body'], deadline: Deadline): AsyncGenerator<ChatStreamEvent> {
    let done = false;
    let finished = false;
    try {
      // Leaving the loop at [DONE] must not destroy the body: the end of the response is usually
      // still in flight, and destroying it builds an AbortError (a stack trace) on every stream.
      const parser = new SseParser();
      const event = (data: string): ChatStreamEvent => {
        const chunk = this.streamChunk(data);
        if ((chunk.choices as Array<{ finish_reason?: unknown }> | undefined)?.some((c) => c.finish_reason)) finished = true;
        return { raw: data, chunk };
      };
      read: for await (const piece of body.iterator({ destroyOnReturn: false })) {
        for (const data of parser.push(piece as Uint8Array)) {
          if (data.trim() === '[DONE]') {
            done = true;
            break read;
          }
          yield event(data);
        }
      }
      // A last event the body ended without its blank line.
      for (const data of done ? [] : parser.end()) {
        if (data.trim() === '[DONE]') done = true;
        else yield event(data);
      }
    } catch (err) {
      if (err instanceof OpenClawError) throw err;
      const mapped = this.mapDeadline(err, deadline);
      if (mapped instanceof OpenClawError) throw mapped;
      throw explainCutStream(this.info, (err as Error).message);
    } finally {
      deadline.clear();
      // After [DONE] the rest is discarded as it arrives (an upstream that never ends the response
      // is cut by the pool's body timeout); on any other exit the answer is abandoned. Either way
      // the body has no reader left, so a late error (an abort) must not become uncaught.
      body.on('error', () => {});
      if (done) body.resume();
      else body.destroy();
    }
    if (!done && !finished) throw explainCutStream(this.info, 'connection closed before [DONE]');
  }

  /** One streamed event's JSON; an unparseable event or an error event ends the stream with an explanation. */
  private streamChunk(data: string): Body {
    let chunk: Body;
    try {
      chunk = parseAnswer(data);
    } catch {
      throw explainCutStream(this.info, `unparseable event: ${data.slice(0, 120)}`);
    }
    if (chunk.error !== undefined) {
      const e = chunk.error as { message?: string };
      throw new OpenClawError(
        'upstream',
        `${this.info.channel} upstream ${this.info.url} reported an error mid-stream: ${e?.message ?? JSON.stringify(chunk.error)}`,
        { status: 502, code: 'upstream_stream_error' },
      );
    }
    return chunk;
  }

  async health(): Promise<{ ok: boolean; detail: string }> {
    try {
      const res = await this.pool.request({
        origin: this.base.origin,
        path: `${this.base.prefix}/models`,
        method: 'GET',
        headers: this.headers(false),
        headersTimeout: 5000,
        bodyTimeout: 5000,
      });
      await res.body.dump();
      if (res.statusCode === 401 || res.statusCode === 403)
        return { ok: false, detail: `${this.base.url}/models answered ${res.statusCode}: API key rejected` };
      return { ok: res.statusCode < 500, detail: `${this.base.url} reachable (HTTP ${res.statusCode} on /models)` };
    } catch (err) {
      return { ok: false, detail: explainNetworkFailure(this.info, err).message };
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** An answer or chunk; the prompt's token ids stay text until the turn is recorded (raw-json/lazy-ints.ts). */
function parseAnswer(text: string): Body {
  return parseWithLazyInts(text, 'prompt_token_ids');
}

/**
 * `first` (already read), then the rest of `rest`. A plain iterator, not an async generator with
 * `yield*`: that would add a generator step (promises and ticks) to every event of every stream.
 */
function prepend<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>): AsyncIterableIterator<T> {
  let head: IteratorResult<T> | undefined = first;
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      if (head === undefined) return rest.next();
      const r = head;
      head = undefined;
      return Promise.resolve(r);
    },
    return(value?: unknown) {
      head = undefined;
      return rest.return(value as T);
    },
  };
}

/** A channel section of the config (rollout / judge / teacher) as far as HTTP is concerned. */
export interface ChannelSettings {
  base_url?: string;
  api_key?: string;
  model_id?: string;
  timeout_s: number;
  first_token_timeout_s?: number;
  max_retries?: number;
}

/** Builds the channel for a config section; `o` overrides what the caller needs differently. */
export function channelFromSettings(
  channel: string,
  s: ChannelSettings,
  o: { maxRetries?: number; connections?: number; timeoutMs?: number } = {},
): OpenAICompatibleChannel {
  if (s.base_url === undefined) throw new OpenClawError('config', `${channel}.base_url is required for an openai_compatible ${channel}`);
  const timeoutMs = o.timeoutMs ?? s.timeout_s * 1000;
  return new OpenAICompatibleChannel({
    channel,
    baseUrl: s.base_url,
    apiKey: s.api_key,
    model: s.model_id,
    timeoutMs,
    firstTokenTimeoutMs: o.timeoutMs ?? (s.first_token_timeout_s !== undefined ? s.first_token_timeout_s * 1000 : timeoutMs),
    maxRetries: o.maxRetries ?? s.max_retries ?? 0,
    connections: o.connections,
  });
}
