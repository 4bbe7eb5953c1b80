// A client of the Tinker training API (docs/tinker.md): JSON over one undici keep-alive pool.
// In: base URL, API key (sent as X-API-Key, never logged), a state dir for the seq_id counter.
// Out: typed calls — session + heartbeat, create/resume a LoRA training model, forward_backward,
// optim_step, save/load weights, asample (policy answers and prompt log-probs), info/health.
// Training and sampling calls are futures: submit, then poll `retrieve_future` until a result
// (try_again → ask again, 408 → ask again at once, 410 → submit the same request once more,
// an error body → an OpenClawError that says what to check).
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { originDispatcher } from '../../util/proxy.ts';
import { OpenClawError } from '../../errors/index.ts';
import { retryDelay } from '../openai-compatible/retry.ts';
import { parseBaseUrl } from '../../util/base-url.ts';
import { SeqStore } from './seq.ts';
import {
  CapabilitiesSchema,
  CreateModelResultSchema,
  CreateSessionSchema,
  ForwardBackwardResultSchema,
  FutureErrorSchema,
  OptimStepResultSchema,
  PathResultSchema,
  SampleResultSchema,
  SubmitSchema,
  TryAgainSchema,
  parseAnswer,
  supportedModelNames,
  type SampleResult,
} from './wire.ts';

/** The hosted service (PROTOCOL.md); TINKER_BASE_URL or tinker.base_url override it. */
export const HOSTED_TINKER_URL = 'https://tinker.thinkingmachines.dev/services/tinker-prod';
/** Sent as sdk_version at create_session: who is calling. */
const CLIENT_VERSION = 'openclaw-rl-ts/0.1';
/** The seq_id counter file under the state dir. */
export const SEQ_FILE = 'tinker-seq.json';

/** Settings of a TinkerClient. */
export interface TinkerClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** Folder of the seq_id counter (the run's output dir). */
  stateDir: string;
  /** Total deadline of one call (submit + every poll), ms; default 1 h (a training step can queue). */
  timeoutMs?: number;
  /** Wait after a `try_again` answer, ms; default 250. */
  pollIntervalMs?: number;
  /** Session heartbeat period, ms; default 10 000 (SkyRL drops a session after 300 s without). */
  heartbeatMs?: number;
  /** Keep-alive connections of the pool; default 32 (each waiting answer holds one during its long-poll). */
  connections?: number;
  /** Called with problems that must not fail the caller (a missed heartbeat). */
  onWarning?: (message: string) => void;
}

/** AdamW settings of optim_step. */
export interface AdamParams {
  learning_rate: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
  weight_decay?: number;
  grad_clip_norm?: number;
}

/** One asample call (PROTOCOL.md "Sampling"). */
export interface SampleRequest {
  promptIds: readonly number[];
  maxTokens: number;
  temperature: number;
  topP?: number;
  topK?: number;
  /** Token ids that end generation. */
  stop?: number[];
  seed?: number;
  /** A `tinker://…/sampler_weights/…` path; otherwise `baseModel` is sampled. */
  modelPath?: string;
  baseModel?: string;
  promptLogprobs?: boolean;
  topkPromptLogprobs?: number;
  numSamples?: number;
  signal?: AbortSignal;
}

type Json = Record<string, unknown>;

interface HttpAnswer {
  status: number;
  json: unknown;
  text: string;
}

/** Typed Tinker API calls over one keep-alive pool. */
export class TinkerClient {
  readonly baseUrl: string;
  private readonly prefix: string;
  private readonly origin: string;
  private readonly pool: Dispatcher;
  private readonly headers: Record<string, string>;
  private readonly seq: SeqStore;
  private readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly heartbeatMs: number;
  private readonly warn: (m: string) => void;
  private heartbeat: NodeJS.Timeout | undefined;
  private modelSeq = 0;
  private closed = false;
  sessionId: string | undefined;

  constructor(opts: TinkerClientOptions) {
    const url = parseBaseUrl(opts.baseUrl, 'tinker.base_url', `hosted: ${HOSTED_TINKER_URL}; SkyRL: http://HOST:8000`);
    this.baseUrl = opts.baseUrl;
    // Accept "…", "…/" and "…/api/v1": every path lives under /api/v1.
    this.prefix = `${url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}/api/v1`;
    this.timeoutMs = opts.timeoutMs ?? 3_600_000;
    this.pollMs = opts.pollIntervalMs ?? 250;
    this.heartbeatMs = opts.heartbeatMs ?? 10_000;
    this.warn = opts.onWarning ?? (() => {});
    // A retrieve_future long-poll is held up to 300 s by SkyRL: allow more before undici gives up.
    this.origin = url.origin;
    // HTTP(S)_PROXY / NO_PROXY apply (util/proxy.ts).
    this.pool = originDispatcher(url.origin, { connections: opts.connections ?? 32, headersTimeout: 330_000, bodyTimeout: 330_000 });
    this.headers = { 'content-type': 'application/json' };
    if (opts.apiKey !== undefined && opts.apiKey !== '') this.headers['x-api-key'] = opts.apiKey;
    this.seq = new SeqStore(join(opts.stateDir, SEQ_FILE));
  }

  /** The last seq_id used on a model (0 = none); persisted across restarts. */
  lastSeqId(modelId: string): number {
    return this.seq.peek(modelId);
  }

  // ---- plain HTTP ----

  private async http(method: 'GET' | 'POST', path: string, body: string | undefined, signal: AbortSignal): Promise<HttpAnswer> {
    if (this.closed) throw new OpenClawError('internal', 'tinker client is closed');
    let status: number;
    let text: string;
    try {
      const res = await this.pool.request({
        origin: this.origin,
        method,
        path: `${this.prefix}${path}`,
        headers: this.headers,
        body,
        signal,
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      throw this.transportError(err, path, signal);
    }
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status, json, text };
  }

  private transportError(err: unknown, path: string, signal: AbortSignal): OpenClawError {
    const where = `${this.baseUrl}${path}`;
    if (signal.aborted)
      return new OpenClawError(
        'upstream_timeout',
        `Tinker ${where} did not finish within ${this.timeoutMs} ms (raise tinker.timeout_s if the queue is long)`,
        { code: 'tinker_timeout', cause: err },
      );
    const code = (err as { code?: string }).code ?? '';
    const detail = err instanceof Error ? `${code} ${err.message}`.trim() : String(err);
    return new OpenClawError(
      'upstream_connection',
      `Tinker ${where} is unreachable (${detail}); check tinker.base_url (or TINKER_BASE_URL), that the server is running, and HTTP(S)_PROXY`,
      { code: 'tinker_unavailable', cause: err },
    );
  }

  /** Maps a non-2xx answer (or an error body) to an OpenClawError that says what to check. */
  private statusError(what: string, a: HttpAnswer): OpenClawError {
    const body = (a.json ?? {}) as Json;
    const detail =
      typeof body.detail === 'string'
        ? body.detail
        : body.detail !== undefined
          ? JSON.stringify(body.detail)
          : typeof body.error === 'string'
            ? body.error
            : typeof body.message === 'string'
              ? body.message
              : a.text.slice(0, 300);
    if (a.status === 401) {
      return new OpenClawError(
        'authentication',
        `Tinker refused the API key for ${what} (401: ${detail}); set tinker.api_key or TINKER_API_KEY to a valid key (hosted keys start with "tml-")`,
        { code: 'tinker_bad_key' },
      );
    }
    if (a.status === 403)
      return new OpenClawError('permission', `Tinker denied ${what} (403: ${detail}); the key lacks access to this model or project`, {
        code: 'tinker_forbidden',
      });
    if (a.status === 404)
      return new OpenClawError(
        'not_found',
        `Tinker ${what}: not found (404: ${detail}); check tinker.base_url (it must be the server root, not …/v1) and the model id or path`,
        { code: 'tinker_not_found' },
      );
    if (a.status === 409) {
      return new OpenClawError(
        'data',
        `Tinker refused ${what} (409: ${detail}); a seq_id was reused with another payload — resume from the last saved weights (a new model) instead of replaying`,
        { code: 'tinker_seq_conflict' },
      );
    }
    if (a.status === 400 || a.status === 422)
      return new OpenClawError(
        'upstream',
        `Tinker rejected ${what} (${a.status}: ${detail}); check the request settings (base model, lengths, sampling params)`,
        { code: 'tinker_rejected' },
      );
    return new OpenClawError('upstream', `Tinker ${what} failed (${a.status}: ${detail})`, {
      code: 'tinker_error',
      status: a.status >= 500 ? 502 : undefined,
    });
  }

  /** One plain (non-future) call, with retries on 429/5xx/connection errors. */
  private async call(method: 'GET' | 'POST', path: string, body: Json | undefined, what: string): Promise<unknown> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const text = body === undefined ? undefined : JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      let a: HttpAnswer;
      try {
        a = await this.http(method, path, text, signal);
      } catch (err) {
        const delay =
          !signal.aborted && (err as OpenClawError).kind === 'upstream_connection' ? retryDelay({ attempt, maxRetries: 2 }) : null;
        if (delay === null) throw err;
        await sleep(delay, signal);
        continue;
      }
      if (a.status >= 200 && a.status < 300) return a.json;
      const delay = a.status === 429 || a.status >= 500 ? retryDelay({ status: a.status, attempt, maxRetries: 2 }) : null;
      if (delay === null) throw this.statusError(what, a);
      await sleep(delay, signal);
    }
  }

  // ---- futures ----

  /**
   * Submits a call and waits for its future. `body` is the exact request text, sent again as is
   * when the server lost the promise (410), so a seq_id is only ever reused with its own payload.
   */
  async submit(path: string, body: string, what: string, outerSignal?: AbortSignal): Promise<unknown> {
    const signal = outerSignal ? AbortSignal.any([outerSignal, AbortSignal.timeout(this.timeoutMs)]) : AbortSignal.timeout(this.timeoutMs);
    let resubmitted = false;
    let requestId = await this.submitOnce(path, body, what, signal);
    for (let attempt = 0; ; ) {
      let a: HttpAnswer;
      try {
        a = await this.http('POST', '/retrieve_future', JSON.stringify({ request_id: requestId, allow_metadata_only: false }), signal);
      } catch (err) {
        const delay =
          !signal.aborted && (err as OpenClawError).kind === 'upstream_connection'
            ? retryDelay({ attempt: attempt++, maxRetries: 5 })
            : null;
        if (delay === null) throw err;
        await sleep(delay, signal);
        continue;
      }
      if (a.status === 408) continue; // the long-poll timed out: ask again at once
      if (a.status === 410) {
        if (resubmitted)
          throw new OpenClawError(
            'upstream',
            `Tinker lost the result of ${what} twice (410); the server may be restarting — check its logs`,
            { code: 'tinker_future_lost' },
          );
        resubmitted = true;
        requestId = await this.submitOnce(path, body, what, signal);
        continue;
      }
      if (a.status === 429 || a.status >= 500) {
        const delay = retryDelay({ status: a.status, attempt: attempt++, maxRetries: 5 });
        if (delay === null) throw this.statusError(what, a);
        await sleep(delay, signal);
        continue;
      }
      if (a.status < 200 || a.status > 299) throw this.statusError(what, a);
      if (TryAgainSchema.safeParse(a.json).success) {
        await sleep(this.pollMs, signal);
        continue;
      }
      const failed = FutureErrorSchema.safeParse(a.json);
      if (failed.success) throw futureError(what, failed.data.error, failed.data.category);
      return a.json;
    }
  }

  private async submitOnce(path: string, body: string, what: string, signal: AbortSignal): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const a = await this.http('POST', path, body, signal);
      if (a.status >= 200 && a.status < 300) return parseAnswer(SubmitSchema, a.json, what).request_id;
      const delay = a.status === 429 || a.status >= 500 ? retryDelay({ status: a.status, attempt, maxRetries: 2 }) : null;
      if (delay === null) throw this.statusError(what, a);
      await sleep(delay, signal);
    }
  }

  /** A training-model call: reserves (and persists) the next seq_id, then submits. */
  private async modelCall(path: string, modelId: string, fields: Json, what: string): Promise<unknown> {
    const seqId = this.seq.next(modelId);
    return this.submit(path, JSON.stringify({ model_id: modelId, seq_id: seqId, ...fields }), what);
  }

  // ---- session ----

  /** Creates the session and starts the heartbeat (idempotent). */
  async createSession(tags: string[] = ['openclaw-rl']): Promise<string> {
    if (this.sessionId !== undefined) return this.sessionId;
    const json = await this.call(
      'POST',
      '/create_session',
      { tags, user_metadata: {}, sdk_version: CLIENT_VERSION, project_id: null, type: 'create_session' },
      'create_session',
    );
    const s = parseAnswer(CreateSessionSchema, json, 'create_session');
    if (s.error_message) throw new OpenClawError('upstream', `Tinker create_session: ${s.error_message}`, { code: 'tinker_session' });
    if (s.warning_message) this.warn(`Tinker: ${s.warning_message}`);
    this.sessionId = s.session_id;
    this.heartbeat = setInterval(() => void this.beat(), this.heartbeatMs);
    // The heartbeat alone never keeps the process alive.
    this.heartbeat.unref();
    return s.session_id;
  }

  private async beat(): Promise<void> {
    try {
      await this.call('POST', '/session_heartbeat', { session_id: this.sessionId, type: 'session_heartbeat' }, 'session_heartbeat');
    } catch (err) {
      this.warn(`Tinker session heartbeat failed: ${(err as Error).message}`);
    }
  }

  // ---- training model ----

  /** Creates a LoRA training model on `baseModel`; returns its model id. */
  async createModel(baseModel: string, loraRank = 32): Promise<string> {
    const sessionId = await this.createSession();
    const body = {
      session_id: sessionId,
      model_seq_id: this.modelSeq++,
      base_model: baseModel,
      lora_config: { rank: loraRank, seed: null, train_unembed: true, train_mlp: true, train_attn: true },
      type: 'create_model',
    };
    const json = await this.submit('/create_model', JSON.stringify(body), `create_model (${baseModel}, LoRA rank ${loraRank})`);
    return parseAnswer(CreateModelResultSchema, json, 'create_model').model_id;
  }

  /** forward_backward with a body built from pre-encoded datums (see datums.ts). */
  async forwardBackward(
    modelId: string,
    buildBody: (seqId: number) => string,
  ): Promise<{ logprobs: number[][]; metrics: Record<string, number> }> {
    const seqId = this.seq.next(modelId);
    const json = await this.submit('/forward_backward', buildBody(seqId), `forward_backward (seq_id ${seqId})`);
    const r = parseAnswer(ForwardBackwardResultSchema, json, 'forward_backward');
    return { logprobs: r.loss_fn_outputs.map((o) => o.logprobs.data), metrics: r.metrics };
  }

  /** optim_step: one AdamW update with the gradients accumulated since the last one. */
  async optimStep(modelId: string, adam: AdamParams): Promise<Record<string, number>> {
    const adam_params = { beta1: 0.9, beta2: 0.95, eps: 1e-12, weight_decay: 0, grad_clip_norm: 0, ...adam };
    const json = await this.modelCall('/optim_step', modelId, { adam_params, type: 'optim_step' }, 'optim_step');
    return parseAnswer(OptimStepResultSchema, json, 'optim_step').metrics ?? {};
  }

  /** Saves sampler weights under `name`; returns the tinker:// sampler path. */
  async saveWeightsForSampler(modelId: string, name: string): Promise<string> {
    const json = await this.modelCall(
      '/save_weights_for_sampler',
      modelId,
      { path: name, type: 'save_weights_for_sampler' },
      'save_weights_for_sampler',
    );
    return parseAnswer(PathResultSchema, json, 'save_weights_for_sampler').path;
  }

  /** Saves the full training state (weights + optimizer) under `name`; returns its tinker:// path. */
  async saveWeights(modelId: string, name: string): Promise<string> {
    const json = await this.modelCall('/save_weights', modelId, { path: name, type: 'save_weights' }, 'save_weights');
    return parseAnswer(PathResultSchema, json, 'save_weights').path;
  }

  /** Loads a saved training state; only valid as a model's first request. */
  async loadWeights(modelId: string, path: string, optimizer = true): Promise<void> {
    await this.modelCall('/load_weights', modelId, { path, optimizer, type: 'load_weights' }, `load_weights (${path})`);
  }

  // ---- sampling ----

  /** asample: one or more completions, and/or prompt log-probs. */
  async sample(req: SampleRequest): Promise<SampleResult> {
    if ((req.modelPath === undefined) === (req.baseModel === undefined)) {
      throw new OpenClawError('internal', 'tinker sample: give exactly one of modelPath and baseModel');
    }
    const body: Json = {
      prompt: { chunks: [{ type: 'encoded_text', tokens: req.promptIds }] },
      num_samples: req.numSamples ?? 1,
      sampling_params: {
        max_tokens: req.maxTokens,
        temperature: req.temperature,
        top_k: req.topK ?? -1,
        top_p: req.topP ?? 1,
        stop: req.stop ?? null,
        seed: req.seed ?? null,
      },
      prompt_logprobs: req.promptLogprobs ?? false,
      topk_prompt_logprobs: req.topkPromptLogprobs ?? 0,
      type: 'sample',
    };
    if (req.modelPath !== undefined) body.model_path = req.modelPath;
    else body.base_model = req.baseModel;
    const json = await this.submit('/asample', JSON.stringify(body), `asample (${req.modelPath ?? req.baseModel})`, req.signal);
    return parseAnswer(SampleResultSchema, json, 'asample');
  }

  // ---- info ----

  async getInfo(modelId: string): Promise<Json> {
    return (await this.call('POST', '/get_info', { model_id: modelId, type: 'get_info' }, 'get_info')) as Json;
  }

  /** Base models the server can train and sample. */
  async capabilities(): Promise<string[]> {
    return supportedModelNames(
      parseAnswer(
        CapabilitiesSchema,
        await this.call('GET', '/get_server_capabilities', undefined, 'get_server_capabilities'),
        'get_server_capabilities',
      ),
    );
  }

  /** Throws unless the server answers its health check. */
  async healthz(): Promise<void> {
    await this.call('GET', '/healthz', undefined, 'healthz');
  }

  /** Stops the heartbeat and closes the pool. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.pool.close();
  }
}

/** A failed future: the server's message, with what to check for its category. */
function futureError(what: string, error: unknown, category: string | undefined): OpenClawError {
  const message = typeof error === 'string' ? error : JSON.stringify(error);
  const hint =
    category?.toLowerCase() === 'user'
      ? 'the request was refused as invalid: check the base model, sequence lengths and loss settings'
      : category?.toLowerCase() === 'server'
        ? 'a server-side failure: retry later or check the server logs'
        : 'check the server logs';
  return new OpenClawError('upstream', `Tinker ${what} failed${category ? ` (${category})` : ''}: ${message}; ${hint}`, {
    code: 'tinker_failed',
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted)
      return reject(new OpenClawError('upstream_timeout', 'Tinker call deadline passed while waiting', { code: 'tinker_timeout' }));
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(t);
      reject(new OpenClawError('upstream_timeout', 'Tinker call deadline passed while waiting', { code: 'tinker_timeout' }));
    }
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
