// A client of the Tinker training API (docs/tinker.md): JSON over one undici keep-alive pool.
// In: base URL, API key (sent as X-API-Key, never logged), a state dir for the seq_id counter.
// Out: typed calls — session + heartbeat, create/resume a LoRA training model, forward_backward,
// optim_step, save/load weights, asample (policy answers and prompt log-probs), info/health.
// Training and sampling calls are futures: submit, then poll `retrieve_future` until a result
// (try_again → ask again, 408 → ask again at once, 410 → submit the same request again within the
// call's deadline, an error body → an OpenClawError that says what to check). What differs
// between servers (idempotent calls, seq_id gaps, prompt-log-prob shape, …) comes from the
// server's profile (profiles.ts), chosen by `tinker.server` or detected from its answers.
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { OpenClawError } from '../../errors/index.ts';
import {
  normalizeBaseUrl,
  openPool,
  retryDelay,
  sleep as sleepFor,
  statusError,
  withRetries,
  type StatusContext,
  type StatusHints,
} from '../../http/index.ts';
import { SeqStore } from './seq.ts';
import {
  PROFILES,
  alignPromptLogprobs,
  type DetectedServer,
  type TinkerCallKind,
  type TinkerProfile,
  type TinkerServerSetting,
} from './profiles.ts';
import {
  CheckpointListSchema,
  ClientConfigSchema,
  CapabilitiesSchema,
  CreateModelResultSchema,
  CreateSessionSchema,
  ForwardBackwardResultSchema,
  FutureErrorSchema,
  OptimStepResultSchema,
  PathResultSchema,
  SampleResultSchema,
  SamplingSessionSchema,
  SubmitSchema,
  TryAgainSchema,
  parseAnswer,
  supportedModelNames,
  type SampleResult,
} from './wire.ts';

/** The hosted service (docs/tinker.md "Setups"); TINKER_BASE_URL or tinker.base_url override it. */
export const HOSTED_TINKER_URL = 'https://tinker.thinkingmachines.dev/services/tinker-prod';
/**
 * The SDK version we announce (create_session, client/config). Servers pick wire features per
 * announced version; 0.18.0 is the newest SDK whose whole wire is JSON: 0.18.1 added
 * `Accept: application/x-protobuf` on retrieve_future (api_future_impl.py L120 in 0.18.1/0.19.0)
 * and 0.19.0 the `proto_write_fwdbwd` flag. Its request shapes are the ones we send
 * (forward_backward without `type`, sampling sessions). Never raise it without speaking that wire.
 */
export const SDK_VERSION = '0.18.0';
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
  /** Called with progress notes (which server profile was chosen, and why). */
  onInfo?: (message: string) => void;
  /** `tinker.server`: a profile name, or `auto` (default) to detect it. */
  server?: TinkerServerSetting;
  /** The base model: `auto` samples one token of it to tell SkyRL's backends apart. */
  baseModel?: string;
}

/** The outcome of the last real call to the server, for /healthz. */
export interface TinkerHealth {
  ok: boolean;
  /** When it happened (ms since epoch). */
  at: number;
  detail: string;
}

/** What a training-model call is, for the retry rules of its server's profile. */
interface CallSpec {
  kind?: TinkerCallKind;
  modelId?: string;
  seqId?: number;
  /**
   * Finds out whether an earlier attempt of a non-idempotent call took effect (after an answer
   * that may or may not have been recorded): its result, or undefined when it did not.
   */
  recover?: (signal: AbortSignal) => Promise<unknown | undefined>;
  /** A refusal of a resubmission that proves the first attempt was recorded. */
  alreadyDone?: (a: HttpAnswer) => boolean;
  /** Set from the profile: whether a refused call's seq_id may stay unused. */
  gapsAllowed?: boolean;
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

/** One asample call (docs/tinker.md "What a step sends"). */
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

/** Where a submit stands: finished with its result, or a future to poll. */
type Submitted = { done: true; result: unknown } | { done: false; requestId: string };

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
  private readonly info: (m: string) => void;
  private readonly serverSetting: TinkerServerSetting;
  private readonly baseModel: string | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private modelSeq = 0;
  private closed = false;
  private detecting: Promise<DetectedServer> | undefined;
  private detected: DetectedServer | undefined;
  private flags: Record<string, unknown> | undefined;
  /** Sampling sessions by sampled target ("path:…" / "base:…"), and the seq_id counter of each. */
  private readonly samplers = new Map<string, Promise<string>>();
  private readonly samplerSeq = new Map<string, number>();
  private samplingSessionSeq = 0;
  /** False once the server answered create_sampling_session with 404 (sample by model_path). */
  private sessionsWork = true;
  private readonly warned = new Set<string>();
  private last: TinkerHealth | undefined;
  sessionId: string | undefined;

  constructor(opts: TinkerClientOptions) {
    const url = normalizeBaseUrl(opts.baseUrl, 'tinker.base_url', `hosted: ${HOSTED_TINKER_URL}; SkyRL: http://HOST:8000`);
    this.baseUrl = opts.baseUrl;
    // Accept "…", "…/" and "…/api/v1": every path lives under /api/v1.
    this.prefix = `${url.root.replace(/\/api$/, '')}/api/v1`;
    this.timeoutMs = opts.timeoutMs ?? 3_600_000;
    this.pollMs = opts.pollIntervalMs ?? 250;
    this.heartbeatMs = opts.heartbeatMs ?? 10_000;
    this.warn = opts.onWarning ?? (() => {});
    this.info = opts.onInfo ?? (() => {});
    this.serverSetting = opts.server ?? 'auto';
    this.baseModel = opts.baseModel;
    // A retrieve_future long-poll is held up to 300 s by SkyRL: allow more before undici gives up.
    this.origin = url.origin;
    // HTTP(S)_PROXY / NO_PROXY apply (http/proxy.ts).
    this.pool = openPool(url.origin, { connections: opts.connections ?? 32, attemptTimeoutMs: 330_000 });
    this.headers = { 'content-type': 'application/json' };
    if (opts.apiKey !== undefined && opts.apiKey !== '') this.headers['x-api-key'] = opts.apiKey;
    this.seq = new SeqStore(join(opts.stateDir, SEQ_FILE));
  }

  /** The last seq_id used on a model (0 = none); persisted across restarts. */
  lastSeqId(modelId: string): number {
    return this.seq.peek(modelId);
  }

  /** The last real call's outcome (undefined before the first). */
  lastCall(): TinkerHealth | undefined {
    return this.last;
  }

  /** Says a problem once per key (a setting the server ignores must not flood the log). */
  warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warn(message);
  }

  // ---- plain HTTP ----

  private async http(
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    signal: AbortSignal,
    opts: { raw?: boolean } = {},
  ): Promise<HttpAnswer> {
    if (this.closed) throw new OpenClawError('internal', 'tinker client is closed');
    let status: number;
    let text: string;
    try {
      const res = await this.pool.request({
        origin: this.origin,
        method,
        path: opts.raw ? path : `${this.prefix}${path}`,
        headers: this.headers,
        body,
        signal,
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      const e = this.transportError(err, path, signal);
      this.last = { ok: false, at: Date.now(), detail: e.message };
      throw e;
    }
    // Any answer below 500 means the server is there (a refusal is the request's problem).
    this.last = {
      ok: status < 500,
      at: Date.now(),
      detail: status < 500 ? `${path} answered ${status}` : `${path} answered ${status}: ${text.slice(0, 200)}`,
    };
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
    return loraSlotsFull(answerDetail(a), what) ?? statusError(tinkerHints(what, answerDetail(a)), { status: a.status, body: a.text });
  }

  /** One plain (non-future) call, with retries on 429/5xx/connection errors. */
  private async call(
    method: 'GET' | 'POST',
    path: string,
    body: Json | undefined,
    what: string,
    timeoutMs = this.timeoutMs,
  ): Promise<unknown> {
    const signal = AbortSignal.timeout(timeoutMs);
    const text = body === undefined ? undefined : JSON.stringify(body);
    const a = await withRetries(
      () => this.http(method, path, text, signal),
      {
        maxRetries: 2,
        signal,
        // Tinker's retried statuses: rate limits and server errors (not 408/409: those are answers).
        retryStatus: (status) => status === 429 || status >= 500,
        retryFailure: (err) => (err as OpenClawError).kind === 'upstream_connection',
        abortError: deadlinePassed,
      },
      { failure: (err) => err, status: (answer) => this.statusError(what, answer) },
    );
    return a.json;
  }

  // ---- the server's profile ----

  /**
   * The server's profile: the configured one, or (auto) detected once from its answers. Reads
   * `client/config` either way (the flags are logged; our wire stays JSON whatever they say).
   */
  server(): Promise<DetectedServer> {
    if (this.detected) return Promise.resolve(this.detected);
    this.detecting ??= this.detect().then(
      (d) => {
        this.detected = d;
        this.info(`tinker: server profile ${d.profile.name} (${d.reason})`);
        return d;
      },
      (err: unknown) => {
        this.detecting = undefined;
        throw err;
      },
    );
    return this.detecting;
  }

  /** The profile when already known (configured or detected), else undefined. */
  knownProfile(): TinkerProfile | undefined {
    return this.detected?.profile ?? (this.serverSetting !== 'auto' ? PROFILES[this.serverSetting] : undefined);
  }

  /** `POST client/config` as the SDK does (internal_client_holder.py L384-399 in 0.18.0); {} when absent. */
  async clientConfig(): Promise<Record<string, unknown>> {
    if (this.flags) return this.flags;
    let flags: Record<string, unknown> = {};
    try {
      const json = await this.call('POST', '/client/config', { sdk_version: SDK_VERSION }, 'client/config', 30_000);
      flags = parseAnswer(ClientConfigSchema, json ?? {}, 'client/config');
    } catch (err) {
      // Servers before the handshake existed answer 404; anything else is a real problem.
      if (!(err instanceof OpenClawError && err.kind === 'not_found')) throw err;
    }
    const proto = Object.entries(flags).filter(([k, v]) => k.startsWith('proto_') && v === true);
    if (proto.length > 0) {
      this.info(
        `tinker: the server offers ${proto.map(([k]) => k).join(', ')}; this client speaks JSON only (SDK ${SDK_VERSION}'s wire) and never asks for protobuf`,
      );
    }
    this.flags = flags;
    return flags;
  }

  private async detect(): Promise<DetectedServer> {
    const flags = await this.clientConfig();
    if (this.serverSetting !== 'auto') return { profile: PROFILES[this.serverSetting], reason: 'tinker.server', flags };
    // SkyRL: GET / answers {"name": "Tinker API Mock", …} (api.py L1692-1696) and client/config
    // has exactly one flag, pjwt_auth_enabled (api.py L895-902). Hosted answers client/config with
    // the SDK's flag set (client_config_response.py).
    let rootName: string | undefined;
    try {
      const a = await this.http('GET', `${this.prefix.replace(/\/api\/v1$/, '')}/`, undefined, AbortSignal.timeout(30_000), { raw: true });
      const name = (a.json as { name?: unknown } | undefined)?.name;
      if (a.status === 200 && typeof name === 'string') rootName = name;
    } catch {
      rootName = undefined;
    }
    const keys = Object.keys(flags);
    const skyrlFlags = keys.length === 1 && keys[0] === 'pjwt_auth_enabled';
    if (rootName !== 'Tinker API Mock' && !skyrlFlags) {
      return {
        profile: PROFILES.hosted,
        reason: `auto: GET / ${rootName ? `names "${rootName}"` : 'has no name'} and client/config has ${keys.length} flag(s) — not SkyRL`,
        flags,
      };
    }
    const why =
      rootName === 'Tinker API Mock' ? 'GET / names "Tinker API Mock" (SkyRL)' : 'client/config has only pjwt_auth_enabled (SkyRL)';
    // SkyRL's API does not say its backend; the shape of prompt log-probs does: JAX answers P − 1
    // entries without a leading null (tx/utils/generator.py L437-439), vLLM P with null first.
    if (this.baseModel === undefined) {
      return { profile: PROFILES['skyrl-jax'], reason: `auto: ${why}; no base model to probe, assuming the default JAX backend`, flags };
    }
    const probe = [1, 2, 3];
    const r = await this.sampleRaw(
      { promptIds: probe, maxTokens: 1, temperature: 1, baseModel: this.baseModel, promptLogprobs: true },
      undefined,
    );
    const lps = r.prompt_logprobs ?? [];
    if (lps.length === probe.length - 1 && lps[0] !== null) {
      return {
        profile: PROFILES['skyrl-jax'],
        reason: `auto: ${why}; a 3-token prompt got 2 prompt log-probs, no leading null (JAX backend)`,
        flags,
      };
    }
    if (lps.length === probe.length && lps[0] === null) {
      return {
        profile: PROFILES['skyrl-train'],
        reason: `auto: ${why}; a 3-token prompt got 3 prompt log-probs, the first null (vLLM: FSDP/Megatron backend)`,
        flags,
      };
    }
    throw new OpenClawError(
      'upstream',
      `Tinker at ${this.baseUrl} looks like SkyRL (${why}) but a 3-token prompt got ${lps.length} prompt log-probs; set tinker.server to skyrl-jax or skyrl-train`,
      { code: 'tinker_bad_answer' },
    );
  }

  // ---- futures ----

  /**
   * Submits a call and waits for its future. `body` is the exact request text, sent again as is
   * when the server lost the promise (410) or the submit's answer was lost — but only where the
   * server's profile dedupes that call; otherwise `spec.recover` finds out what happened first.
   */
  async submit(path: string, body: string, what: string, outerSignal?: AbortSignal, spec: CallSpec = {}): Promise<unknown> {
    const signal = outerSignal ? AbortSignal.any([outerSignal, AbortSignal.timeout(this.timeoutMs)]) : AbortSignal.timeout(this.timeoutMs);
    const profile = spec.kind !== undefined ? (await this.server()).profile : undefined;
    // Sampling and reads have no side effect: resubmitting them is always safe.
    const idempotent = spec.kind === undefined || profile!.idempotent.has(spec.kind);
    spec = { ...spec, gapsAllowed: profile?.seqGapsAllowed ?? true };
    const start = await this.submitFirst(path, body, what, signal, spec, idempotent);
    if (start.done) return start.result;
    // The server lost the promise (410, api_future_impl.py L181-184: retryable). Submit again,
    // as often as it takes within the deadline — where the call is safe to resubmit.
    const resubmit = () =>
      idempotent
        ? this.submitFirst(path, body, what, signal, spec, true)
        : this.resolveAmbiguous(path, body, what, signal, spec, `lost its result (410)`);
    return this.waitFuture(start.requestId, what, signal, resubmit);
  }

  /** A failed future answered as an HTTP status (SkyRL: 400 {detail}, api.py L1417-1424). */
  private futureStatusError(what: string, a: HttpAnswer): OpenClawError {
    const full = loraSlotsFull(answerDetail(a), what);
    return full ?? this.statusError(what, a);
  }

  /** The first submit (and, for idempotent calls, its resubmits); undone seq_ids on refusals. */
  private async submitFirst(
    path: string,
    body: string,
    what: string,
    signal: AbortSignal,
    spec: CallSpec,
    idempotent: boolean,
  ): Promise<Submitted> {
    for (let attempt = 0; ; attempt++) {
      let a: HttpAnswer;
      try {
        a = await this.http('POST', path, body, signal);
      } catch (err) {
        const e = err as OpenClawError;
        if (signal.aborted || e.kind !== 'upstream_connection') throw err;
        // Refused before anything was sent: nothing can have been recorded.
        const never = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(e.message);
        if (never || idempotent) {
          if (attempt >= 2 && never) throw this.released(spec, err);
          await sleep(backoff(attempt), signal);
          continue;
        }
        return this.resolveAmbiguous(path, body, what, signal, spec, 'lost the answer to its submit');
      }
      if (a.status >= 200 && a.status < 300) return { done: false, requestId: parseAnswer(SubmitSchema, a.json, what).request_id };
      if (a.status === 429) {
        // Refused before it was recorded: safe to send again.
        await sleep(retryDelay({ status: 429, attempt: 0, maxRetries: 1 }) ?? backoff(attempt), signal);
        continue;
      }
      if (a.status >= 500) {
        if (idempotent) {
          await sleep(backoff(attempt), signal);
          continue;
        }
        return this.resolveAmbiguous(path, body, what, signal, spec, `answered ${a.status} to its submit`);
      }
      // A refusal (4xx other than 409): the server did not record it, so its seq_id is free again.
      throw this.released(spec, this.statusError(what, a), a.status !== 409);
    }
  }

  /** Gives the seq_id of a refused call back (no gap), then returns the error to throw. */
  private released(spec: CallSpec, err: unknown, free = true): unknown {
    if (free && !spec.gapsAllowed && spec.modelId !== undefined && spec.seqId !== undefined) this.seq.release(spec.modelId, spec.seqId);
    return err;
  }

  /**
   * A non-idempotent call may or may not have taken effect: find out (spec.recover) before any
   * second attempt, and treat a refusal that proves the first was recorded (spec.alreadyDone) as
   * "wait for it" rather than an error.
   */
  private async resolveAmbiguous(
    path: string,
    body: string,
    what: string,
    signal: AbortSignal,
    spec: CallSpec,
    why: string,
  ): Promise<Submitted> {
    this.warn(`Tinker ${what} ${why}; checking whether it took effect before sending it again (not deduplicated by this server)`);
    for (let attempt = 0; ; attempt++) {
      await sleep(backoff(attempt), signal);
      const found = spec.recover ? await spec.recover(signal).catch(() => undefined) : undefined;
      if (found !== undefined) return { done: true, result: found };
      let a: HttpAnswer;
      try {
        a = await this.http('POST', path, body, signal);
      } catch (err) {
        if (signal.aborted || (err as OpenClawError).kind !== 'upstream_connection') throw err;
        continue;
      }
      if (a.status >= 200 && a.status < 300) return { done: false, requestId: parseAnswer(SubmitSchema, a.json, what).request_id };
      if (a.status === 429 || a.status >= 500) continue;
      if (spec.alreadyDone?.(a)) {
        // The first attempt was recorded and is still running: wait until it shows.
        if (!spec.recover) return { done: true, result: undefined };
        for (let wait = 0; ; wait++) {
          await sleep(backoff(wait), signal);
          const r = await spec.recover(signal).catch(() => undefined);
          if (r !== undefined) return { done: true, result: r };
        }
      }
      throw this.statusError(what, a);
    }
  }

  /** A training-model call: reserves (and persists) the next seq_id, then submits. */
  private async modelCall(
    path: string,
    modelId: string,
    fields: Json,
    what: string,
    spec: Omit<CallSpec, 'modelId' | 'seqId'>,
  ): Promise<unknown> {
    await this.server(); // the profile decides the retry rules: know it before a seq_id is used
    const seqId = this.seq.next(modelId);
    return this.submit(path, JSON.stringify({ model_id: modelId, seq_id: seqId, ...fields }), `${what} (seq_id ${seqId})`, undefined, {
      ...spec,
      modelId,
      seqId,
    });
  }

  // ---- session ----

  /** Creates the session and starts the heartbeat (idempotent). */
  async createSession(tags: string[] = ['openclaw-rl']): Promise<string> {
    if (this.sessionId !== undefined) return this.sessionId;
    await this.clientConfig();
    const json = await this.call(
      'POST',
      '/create_session',
      { tags, user_metadata: {}, sdk_version: SDK_VERSION, project_id: null, type: 'create_session' },
      'create_session',
    );
    const s = parseAnswer(CreateSessionSchema, json, 'create_session');
    if (s.error_message) throw new OpenClawError('upstream', `Tinker create_session: ${s.error_message}`, { code: 'tinker_session' });
    if (s.warning_message) this.warn(`Tinker: ${s.warning_message}`);
    this.sessionId = s.session_id;
    // Beat at once: SkyRL reaps only sessions whose last heartbeat is old, and one that never
    // sent any (last_heartbeat_at NULL) is never reaped, its models holding their LoRA slots
    // forever (api.py L927-936, engine.py L548-558). The SDK's first beat comes after 10 s.
    await this.beat();
    this.heartbeat = setInterval(() => void this.beat(), this.heartbeatMs);
    // The heartbeat alone never keeps the process alive.
    this.heartbeat.unref();
    return s.session_id;
  }

  private async beat(): Promise<void> {
    try {
      await this.call('POST', '/session_heartbeat', { session_id: this.sessionId, type: 'session_heartbeat' }, 'session_heartbeat', 30_000);
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
    const what = `create_model (${baseModel}, LoRA rank ${loraRank})`;
    const json = await this.submit('/create_model', JSON.stringify(body), what, undefined, {
      kind: 'create_model',
      recover: async () => {
        // SkyRL makes a new model per submit (api.py L991): a lost answer may leave one behind,
        // held until this session stops beating (engine.py L542-607). Nothing to find: say so.
        this.warnOnce(
          'create_model-lost',
          `Tinker ${what}: a model may have been created twice; the spare one is freed when this session ends`,
        );
        return undefined;
      },
    });
    return parseAnswer(CreateModelResultSchema, json, 'create_model').model_id;
  }

  /** Frees a training model and its LoRA slot (`unload_model`; SkyRL api.py L1025-1046). Never throws. */
  async unloadModel(modelId: string, timeoutMs = 60_000): Promise<boolean> {
    try {
      const signal = AbortSignal.timeout(timeoutMs);
      const body = JSON.stringify({ model_id: modelId, type: 'unload_model' });
      const a = await this.http('POST', '/unload_model', body, signal);
      if (a.status === 404) return false; // already gone (or a server without the call)
      if (a.status < 200 || a.status > 299) throw this.statusError(`unload_model (${modelId})`, a);
      const sub = SubmitSchema.safeParse(a.json);
      if (sub.success) await this.waitFuture(sub.data.request_id, `unload_model (${modelId})`, signal);
      return true;
    } catch (err) {
      this.warn(`Tinker unload_model ${modelId} failed: ${(err as Error).message}`);
      return false;
    }
  }

  /**
   * Polls one future to its result. With `resubmit` (calls made through `submit`), a connection
   * error asks again and a lost promise (410) is met by `resubmit`, which gives the result or the
   * new future to poll; without it (unload_model: nothing to repeat) both are errors.
   */
  private async waitFuture(requestId: string, what: string, signal: AbortSignal, resubmit?: () => Promise<Submitted>): Promise<unknown> {
    let lost = 0;
    for (let attempt = 0; ; ) {
      let a: HttpAnswer;
      try {
        a = await this.http('POST', '/retrieve_future', JSON.stringify({ request_id: requestId, allow_metadata_only: false }), signal);
      } catch (err) {
        // The future is kept by the server: ask again (the SDK does so without limit,
        // api_future_impl.py L195-214), within this call's deadline.
        if (!resubmit || signal.aborted || (err as OpenClawError).kind !== 'upstream_connection') throw err;
        await sleep(backoff(attempt++), signal);
        continue;
      }
      if (a.status === 408) continue; // the long-poll timed out: ask again at once
      if (a.status === 410 && resubmit) {
        await sleep(backoff(lost++), signal);
        const again = await resubmit();
        if (again.done) return again.result;
        requestId = again.requestId;
        continue;
      }
      if (a.status === 429 || a.status >= 500) {
        await sleep(backoff(attempt++), signal);
        continue;
      }
      if (a.status < 200 || a.status > 299) throw this.futureStatusError(what, a);
      if (TryAgainSchema.safeParse(a.json).success) {
        await sleep(this.pollMs, signal);
        continue;
      }
      const failed = FutureErrorSchema.safeParse(a.json);
      if (failed.success) throw futureError(what, failed.data.error, failed.data.category);
      return a.json;
    }
  }

  /** forward_backward with a body built from pre-encoded datums (see datums.ts). */
  async forwardBackward(
    modelId: string,
    buildBody: (seqId: number) => string,
  ): Promise<{ logprobs: number[][]; metrics: Record<string, number> }> {
    await this.server();
    const seqId = this.seq.next(modelId);
    const json = await this.submit('/forward_backward', buildBody(seqId), `forward_backward (seq_id ${seqId})`, undefined, {
      kind: 'forward_backward',
      modelId,
      seqId,
    });
    const r = parseAnswer(ForwardBackwardResultSchema, json, 'forward_backward');
    return { logprobs: r.loss_fn_outputs.map((o) => o.logprobs.data), metrics: r.metrics };
  }

  /** forward (no gradient): the training model's per-position log-probs of each datum's targets. */
  async forward(modelId: string, buildBody: (seqId: number) => string): Promise<number[][]> {
    await this.server();
    const seqId = this.seq.next(modelId);
    const json = await this.submit('/forward', buildBody(seqId), `forward (seq_id ${seqId})`, undefined, {
      kind: 'forward',
      modelId,
      seqId,
    });
    return parseAnswer(ForwardBackwardResultSchema, json, 'forward').loss_fn_outputs.map((o) => o.logprobs.data);
  }

  /** optim_step: one AdamW update with the gradients accumulated since the last one. */
  async optimStep(modelId: string, adam: AdamParams): Promise<Record<string, number>> {
    const { profile } = await this.server();
    const adam_params: Json = { beta1: 0.9, beta2: 0.95, eps: 1e-12, weight_decay: 0, grad_clip_norm: 0, ...adam };
    // Not a field of SkyRL's AdamParams (api.py L664-678): leave it out rather than have it dropped.
    if (!profile.adamFields.has('grad_clip_norm')) delete adam_params.grad_clip_norm;
    const json = await this.modelCall('/optim_step', modelId, { adam_params, type: 'optim_step' }, 'optim_step', { kind: 'optim_step' });
    return parseAnswer(OptimStepResultSchema, json, 'optim_step').metrics ?? {};
  }

  /** The finished checkpoint `name` of a model, from `GET training_runs/{id}/checkpoints` (SkyRL api.py L1623-1651). */
  async findCheckpoint(modelId: string, kind: 'weights' | 'sampler_weights', name: string): Promise<string | undefined> {
    const json = await this.call('GET', `/training_runs/${encodeURIComponent(modelId)}/checkpoints`, undefined, 'list checkpoints', 30_000);
    const list = parseAnswer(CheckpointListSchema, json, 'list checkpoints');
    const want = `tinker://${modelId}/${kind}/${name}`;
    return list.checkpoints.find((c) => c.tinker_path === want)?.tinker_path;
  }

  /** save_weights / save_weights_for_sampler, recovering a lost answer from the checkpoint list. */
  private async save(path: string, kind: 'save_weights' | 'save_weights_for_sampler', modelId: string, name: string): Promise<string> {
    const folder = kind === 'save_weights' ? 'weights' : 'sampler_weights';
    const json = await this.modelCall(path, modelId, { path: name, type: kind }, kind, {
      kind,
      recover: async () => {
        const found = await this.findCheckpoint(modelId, folder, name);
        return found === undefined ? undefined : { path: found };
      },
      // SkyRL refuses a second save under a name already recorded (api.py L437-439).
      alreadyDone: (a) => a.status === 409 && /already exists/i.test(answerDetail(a)),
    });
    return parseAnswer(PathResultSchema, json, kind).path;
  }

  /** Saves sampler weights under `name`; returns the tinker:// sampler path. */
  async saveWeightsForSampler(modelId: string, name: string): Promise<string> {
    return this.save('/save_weights_for_sampler', 'save_weights_for_sampler', modelId, name);
  }

  /** Saves the full training state (weights + optimizer) under `name`; returns its tinker:// path. */
  async saveWeights(modelId: string, name: string): Promise<string> {
    return this.save('/save_weights', 'save_weights', modelId, name);
  }

  /** Loads a saved training state; only valid as a model's first request. */
  async loadWeights(modelId: string, path: string, optimizer = true): Promise<void> {
    await this.modelCall('/load_weights', modelId, { path, optimizer, type: 'load_weights' }, `load_weights (${path})`, {
      kind: 'load_weights',
      // SkyRL refuses any load after the model's first request (api.py L1193-1202): after a lost
      // answer, that refusal means our first load was recorded, and later calls queue behind it.
      alreadyDone: (a) => a.status === 400 && /LoadWeights is not permitted/i.test(answerDetail(a)),
    });
  }

  // ---- sampling ----

  /**
   * The sampling session of a target, created once (SDK sampling_client.py L174-188,
   * internal_client_holder.py L360-378 in 0.18.0); undefined where the server has none.
   */
  private async samplingSession(target: { modelPath?: string; baseModel?: string }, profile: TinkerProfile): Promise<string | undefined> {
    if (!profile.samplingSessions || !this.sessionsWork) return undefined;
    const key = target.modelPath !== undefined ? `path:${target.modelPath}` : `base:${target.baseModel}`;
    let p = this.samplers.get(key);
    if (p === undefined) {
      p = (async () => {
        const sessionId = await this.createSession();
        const json = await this.call(
          'POST',
          '/create_sampling_session',
          {
            session_id: sessionId,
            sampling_session_seq_id: this.samplingSessionSeq++,
            ...(target.modelPath !== undefined ? { model_path: target.modelPath } : { base_model: target.baseModel }),
            type: 'create_sampling_session',
          },
          'create_sampling_session',
        );
        return parseAnswer(SamplingSessionSchema, json, 'create_sampling_session').sampling_session_id;
      })();
      this.samplers.set(key, p);
      p.catch(() => this.samplers.delete(key));
    }
    try {
      return await p;
    } catch (err) {
      if (err instanceof OpenClawError && err.kind === 'not_found') {
        this.sessionsWork = false;
        this.info('tinker: this server has no create_sampling_session; sampling by model_path / base_model');
        return undefined;
      }
      throw err;
    }
  }

  /** asample: one or more completions, and/or prompt log-probs (P entries, the first null). */
  async sample(req: SampleRequest): Promise<SampleResult> {
    if ((req.modelPath === undefined) === (req.baseModel === undefined)) {
      throw new OpenClawError('internal', 'tinker sample: give exactly one of modelPath and baseModel');
    }
    const { profile } = await this.server();
    const r = await this.sampleRaw(req, profile);
    // One shape for every caller: the SDK's P entries with a leading null.
    if (req.promptLogprobs && r.prompt_logprobs) r.prompt_logprobs = alignPromptLogprobs(profile, r.prompt_logprobs, req.promptIds.length);
    return r;
  }

  private async sampleRaw(req: SampleRequest, profile: TinkerProfile | undefined): Promise<SampleResult> {
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
    const target = req.modelPath !== undefined ? { modelPath: req.modelPath } : { baseModel: req.baseModel };
    const session = profile ? await this.samplingSession(target, profile) : undefined;
    if (session !== undefined) {
      // Each request of a session takes the next seq_id, from 0 (sampling_client.py L209-222).
      const seq = this.samplerSeq.get(session) ?? 0;
      this.samplerSeq.set(session, seq + 1);
      body.sampling_session_id = session;
      body.seq_id = seq;
    } else if (req.modelPath !== undefined) body.model_path = req.modelPath;
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
  async healthz(timeoutMs = this.timeoutMs): Promise<void> {
    await this.call('GET', '/healthz', undefined, 'healthz', timeoutMs);
  }

  /** Stops the heartbeat and closes the pool. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.pool.close();
  }
}

/** The message of an error answer: SkyRL's {detail}, hosted's {error}/{message}, else the text. */
function answerDetail(a: HttpAnswer): string {
  const body = (a.json ?? {}) as Json;
  return typeof body.detail === 'string'
    ? body.detail
    : body.detail !== undefined
      ? JSON.stringify(body.detail)
      : typeof body.error === 'string'
        ? body.error
        : typeof body.message === 'string'
          ? body.message
          : a.text.slice(0, 300);
}

/** SkyRL-JAX's "Maximum number of LoRA adapters (N) reached" (backends/jax.py L577-578) as a clear error. */
function loraSlotsFull(message: string, what: string): OpenClawError | undefined {
  if (!/Maximum number of LoRA adapters/i.test(message)) return undefined;
  return new OpenClawError(
    'upstream',
    `Tinker ${what}: the server's LoRA slots are full (${message}). Each training model holds one of SkyRL's max_lora_adapters slots (one is the base model): free the models of stopped runs (their sessions are reaped after session_timeout_sec without a heartbeat, or unload_model), or restart the server with a larger --backend-config '{"max_lora_adapters": N}'`,
    { code: 'tinker_lora_slots_full' },
  );
}

/** Back-off for retries within a call's deadline: 250 ms doubling to 30 s (the SDK's cap). */
function backoff(attempt: number): number {
  return Math.min(30_000, 250 * 2 ** Math.min(attempt, 7));
}

/** A failed future: the server's message, with what to check for its category. */
function futureError(what: string, error: unknown, category: string | undefined): OpenClawError {
  const message = typeof error === 'string' ? error : JSON.stringify(error);
  const full = loraSlotsFull(message, what);
  if (full) return full;
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

/** A wait cut by the call's deadline. */
function deadlinePassed(): OpenClawError {
  return new OpenClawError('upstream_timeout', 'Tinker call deadline passed while waiting', { code: 'tinker_timeout' });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return sleepFor(ms, signal, deadlinePassed);
}

/** Tinker's hints for the status→error table (http/errors.ts): what to check, by status. */
function tinkerHints(what: string, detail: string): StatusHints {
  return {
    auth: () => ({
      message: `Tinker refused the API key for ${what} (401: ${detail}); set tinker.api_key or TINKER_API_KEY to a valid key (hosted keys start with "tml-")`,
      code: 'tinker_bad_key',
    }),
    forbidden: () => ({
      message: `Tinker denied ${what} (403: ${detail}); the key lacks access to this model or project`,
      code: 'tinker_forbidden',
    }),
    not_found: () => ({
      message: `Tinker ${what}: not found (404: ${detail}); check tinker.base_url (it must be the server root, not …/v1) and the model id or path`,
      code: 'tinker_not_found',
    }),
    conflict: () => ({
      message: `Tinker refused ${what} (409: ${detail}); a seq_id was reused with another payload — resume from the last saved weights (a new model) instead of replaying`,
      code: 'tinker_seq_conflict',
      kind: 'data',
    }),
    rejected: ({ status }: StatusContext) => ({
      message: `Tinker rejected ${what} (${status}: ${detail}); check the request settings (base model, lengths, sampling params)`,
      code: 'tinker_rejected',
      kind: 'upstream',
    }),
    refused: ({ status }: StatusContext) => ({
      message: `Tinker ${what} failed (${status}: ${detail})`,
      code: 'tinker_error',
      kind: 'upstream',
      status: status >= 500 ? 502 : undefined,
    }),
  };
}
