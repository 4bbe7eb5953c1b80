// The Tinker API on the embedded engine, main-thread side: sessions, training models, the per-model
// seq_id queues (sequence.ts), futures (futures.ts), sampling sessions and known sampler paths.
// Request bodies arrive parsed (schemas.ts) and are checked against the base model here (token ids
// in the vocabulary, lengths within the context, loss inputs present and aligned), so a bad call
// is a 400 at once rather than a failed future; the compute runs in the Tinker worker thread
// (handler.ts). Futures fail with {"error", "category": "user" | "server"} (hosted) or, on the
// SkyRL profiles, make retrieve_future answer 400 {"detail"} (api.py L1417-1424).
// The server profile (profiles.ts) decides every difference between hosted Tinker, SkyRL-JAX and
// SkyRL-Train: ordering, idempotency, sessions and their reaping, LoRA slots, result shapes.

import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { OpenClawError, invalidRequest } from '../../errors/index.ts';
import type { GptConfig } from '../../engines/embedded/index.ts';
import { ThreadClient } from '../../threads/client.ts';
import { FutureStore } from './futures.ts';
import type { SampleArgs, WorkerInfo, WorkerOps } from './handler.ts';
import { LOSS_FNS, type LearnerDatum, type LearnerLossConfig } from './learner.ts';
import { formatPath, parsePath, pathDir, type TinkerPath } from './paths.ts';
import type { z } from 'zod';
import type * as S from './schemas.ts';
import {
  DetailError,
  PROFILES,
  SKYRL_SESSION_CLEANUP_MS,
  SKYRL_SESSION_TIMEOUT_MS,
  SKYRL_TRAIN_OPTIMIZER,
  unprocessable,
  type TinkerProfile,
  type TinkerProfileName,
} from './profiles.ts';
import type { ScriptRule } from './script.ts';
import { ArrivalQueue, SeqQueue, type ModelQueue } from './sequence.ts';

/** Options of the embedded Tinker server. */
export interface TinkerServerOptions {
  /** The embedded checkpoint folder every training model starts from. */
  checkpoint: string;
  /** Where save_weights / save_weights_for_sampler write (created when missing). */
  stateDir: string;
  /** The name clients pass as base_model (get_server_capabilities lists it). */
  baseModel: string;
  /** How long retrieve_future waits for a result before answering try_again (default 3000 ms). */
  pollMs?: number;
  /** How long a model's queue waits for a missing seq_id before moving on (default 10000 ms; hosted only). */
  seqGapMs?: number;
  /** Which real server to behave like (default hosted). */
  profile?: TinkerProfileName;
  /** LoRA slots, one of them the base (skyrl-jax; default 32 as SkyRL's JaxBackendConfig). */
  maxLoraAdapters?: number;
  /** SkyRL: a session whose last heartbeat is older than this is reaped (default 300 s; < 0 disables). */
  sessionTimeoutMs?: number;
  /** SkyRL: how often stale sessions are looked for (default 60 s; < 0 disables). */
  sessionCleanupMs?: number;
  /**
   * The base model's Hugging Face tokenizer folder (tokenizer.json + tokenizer_config.json), read
   * instead of the checkpoint's byte-level tokenizer for stop strings and scripted answers; the
   * checkpoint's vocabulary must hold its ids (docs/tinker-local.md#a-real-vocabulary).
   */
  tokenizer?: string;
  /** Scripted answers: prompts matching a rule get its completion instead of a sample (script.ts). */
  script?: ScriptRule[];
}

type Body<T extends z.ZodTypeAny> = z.infer<T>;

interface ModelEntry {
  id: string;
  baseModel: string;
  loraRank: number | null;
  loraSeed: number | null;
  sessionId: string;
  queue: ModelQueue;
  /** SkyRL keeps a model's row after unloading it: 'created' → 'unloading' → 'unloaded'. */
  status: 'created' | 'unloading' | 'unloaded';
  /** Whether the learner holds it (SkyRL: backend.has_model). */
  loaded: boolean;
  /** skyrl-jax: its LoRA slot (1 … max_lora_adapters − 1). */
  slot: number | null;
}

interface SessionEntry {
  /** null until the first heartbeat: SkyRL never reaps such a session (engine.py L553-557). */
  lastHeartbeat: number | null;
  heartbeats: number;
  status: 'active' | 'expired';
}

/** The one ppo default the API documents: ratio bounds 0.8 / 1.2. */
const DEFAULT_CLIP: LearnerLossConfig = { clipLow: 0.8, clipHigh: 1.2 };

const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url);

/** Whether a failure is the caller's (bad input, unknown thing) or ours. */
function category(err: unknown): 'user' | 'server' {
  return err instanceof OpenClawError && ['invalid_request', 'context_length', 'not_found'].includes(err.kind) ? 'user' : 'server';
}

/** Identifies a payload for idempotency (the constant `type` field does not count). */
function payloadKey(op: string, body: Record<string, unknown>): string {
  const { type: _type, ...rest } = body;
  return createHash('sha256').update(op).update('\0').update(JSON.stringify(rest)).digest('hex');
}

/** The embedded Tinker service. */
export class TinkerService {
  readonly profile: TinkerProfile;
  private readonly futures: FutureStore;
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly models = new Map<string, ModelEntry>();
  private readonly createdBySeq = new Map<string, { key: string; requestId: string; modelId: string }>();
  /** Hosted: a resolved source. SkyRL: the raw base_model / model_path, checked when sampled. */
  private readonly samplingSessions = new Map<string, { path: TinkerPath | null; baseModel?: string | null; modelPath?: string | null }>();
  /** Sampler paths saved by this run (older runs' are found on disk). */
  private readonly samplerPaths = new Set<string>();
  /** SkyRL's checkpoint rows: `<model>/<kind>/<name>` → status (api.py L411-439, L1434-1449). */
  private readonly checkpoints = new Map<string, 'pending' | 'completed' | 'failed'>();
  /** skyrl-train: the (rank, alpha) of the first LoRA policy; 'fft' when it was full fine-tuning. */
  private trainSignature: number | 'fft' | null = null;
  private readonly reaper: NodeJS.Timeout | undefined;

  private constructor(
    private readonly opts: TinkerServerOptions,
    private readonly worker: ThreadClient,
    readonly config: GptConfig,
    /** Where served text comes from (the checkpoint's tokenizer or `tokenizer`), null without one. */
    readonly tokenizerSource: string | null = null,
  ) {
    this.profile = PROFILES[opts.profile ?? 'hosted'];
    this.futures = new FutureStore(4096, this.profile.skyrl ? 'integer' : 'instance');
    const timeout = opts.sessionTimeoutMs ?? SKYRL_SESSION_TIMEOUT_MS;
    const every = opts.sessionCleanupMs ?? SKYRL_SESSION_CLEANUP_MS;
    if (this.profile.skyrl && timeout >= 0 && every >= 0) {
      this.reaper = setInterval(() => this.reapStaleSessions(timeout), every);
      this.reaper.unref();
    }
  }

  /** max_lora_adapters in force (skyrl-jax), or null. */
  get maxLoraAdapters(): number | null {
    return this.profile.lora === 'slots' ? (this.opts.maxLoraAdapters ?? this.profile.defaultMaxLoraAdapters) : null;
  }

  /** A new id as SkyRL makes them: prefix + 8 hex (api.py L914, L948, L991). */
  private newId(prefix: string): string {
    return `${prefix}_${randomUUID()
      .replace(/-/g, '')
      .slice(0, this.profile.skyrl ? 8 : 12)}`;
  }

  /** Starts the worker thread and loads the base model into it. */
  static async start(opts: TinkerServerOptions): Promise<TinkerService> {
    const worker = new ThreadClient({
      entry: ENTRY,
      label: 'the embedded Tinker worker',
      remedy: 'restart the engine server (weights saved with save_weights are under the state dir)',
    });
    try {
      const info = await worker.request<WorkerInfo>('init', {
        checkpoint: opts.checkpoint,
        stateDir: opts.stateDir,
        profile: opts.profile ?? 'hosted',
        tokenizer: opts.tokenizer,
        script: opts.script,
      } satisfies WorkerOps['init']);
      return new TinkerService(opts, worker, info.config, info.tokenizer);
    } catch (err) {
      await worker.terminate();
      throw err;
    }
  }

  /** Stops the worker; pending futures fail. */
  async close(): Promise<void> {
    clearInterval(this.reaper);
    await this.worker.terminate('the embedded Tinker server was closed');
  }

  private call<K extends keyof WorkerOps>(op: K, args: WorkerOps[K]): Promise<unknown> {
    return this.worker.request(op, args);
  }

  /** healthz: ok while the worker thread runs (a dead worker fails every call: restart the server). */
  health(): { ok: boolean; detail: string } {
    return this.worker.alive
      ? { ok: true, detail: 'ok' }
      : { ok: false, detail: this.worker.failure?.message ?? 'the Tinker worker stopped' };
  }

  capabilities(): Record<string, unknown> {
    // SkyRL: exactly {"supported_models": [{"model_name"}]} (api.py L1376-1382). Hosted: the SDK's
    // SupportedModel also has max_context_length (types/get_server_capabilities_response.py).
    if (this.profile.skyrl) return { supported_models: [{ model_name: this.opts.baseModel }] };
    return {
      supported_models: [{ model_name: this.opts.baseModel, max_context_length: this.config.ctx }],
      supported_loss_fns: [...LOSS_FNS],
    };
  }

  createSession(body: Body<typeof S.CreateSession>): Record<string, unknown> {
    // SkyRL's CreateSessionRequest has no defaults for these (api.py L816-820).
    if (this.profile.skyrl) {
      if (body.tags === undefined) throw unprocessable(['tags'], 'Field required', 'missing', body);
      if (body.sdk_version === undefined) throw unprocessable(['sdk_version'], 'Field required', 'missing', body);
    }
    const id = this.newId('session');
    this.sessions.set(id, { lastHeartbeat: null, heartbeats: 0, status: 'active' });
    return { type: 'create_session', session_id: id, info_message: null, warning_message: null, error_message: null };
  }

  heartbeat(body: Body<typeof S.SessionRef>): Record<string, unknown> {
    const s = this.session(body.session_id);
    // api.py L927-936: the time and a count; an expired session stays expired.
    s.lastHeartbeat = Date.now();
    s.heartbeats += 1;
    return { type: 'session_heartbeat' };
  }

  /** A session's bookkeeping (for tests and the docs' claims). */
  sessionInfo(id: string): Readonly<SessionEntry> | undefined {
    return this.sessions.get(id);
  }

  private session(id: string): SessionEntry {
    const s = this.sessions.get(id);
    if (s === undefined) {
      if (this.profile.skyrl) throw new DetailError(404, 'Session not found');
      throw new OpenClawError('not_found', `no session ${id} on this server (sessions do not survive a restart): call create_session`, {
        param: 'session_id',
      });
    }
    return s;
  }

  /**
   * SkyRL's cleanup_stale_sessions (engine.py L542-607): active sessions whose last heartbeat is
   * older than the timeout lose their models (unloaded, slots freed) and become expired. A
   * session that never sent a heartbeat has no time to compare and is never reaped.
   */
  reapStaleSessions(timeoutMs: number, now = Date.now()): string[] {
    const expired: string[] = [];
    for (const [id, s] of this.sessions) {
      if (s.status !== 'active' || s.lastHeartbeat === null || s.lastHeartbeat >= now - timeoutMs) continue;
      for (const m of this.models.values()) if (m.sessionId === id && m.status !== 'unloaded') this.unloadNow(m);
      s.status = 'expired';
      expired.push(id);
    }
    return expired;
  }

  /**
   * Frees a model's learner state (SkyRL keeps its row): after the calls queued on it, or right
   * away when already running inside its queue (`inQueue`: queueing again would wait on itself).
   */
  private unloadNow(m: ModelEntry, inQueue = false): Promise<unknown> {
    const wasLoaded = m.loaded;
    m.loaded = false;
    m.status = 'unloaded';
    m.slot = null;
    if (this.profile.lora === 'signature' && ![...this.models.values()].some((o) => o.loaded)) this.trainSignature = null;
    if (!wasLoaded) return Promise.resolve();
    const free = () => this.call('unload_model', { modelId: m.id });
    return inQueue ? free() : m.queue.first(free);
  }

  private checkBaseModel(name: string, param: string): void {
    if (name !== this.opts.baseModel) {
      throw invalidRequest(
        `base_model '${name}' is not served here; this embedded Tinker server serves only '${this.opts.baseModel}' (see get_server_capabilities)`,
        param,
        'unsupported_model',
      );
    }
  }

  createModel(body: Body<typeof S.CreateModel>): Record<string, unknown> {
    if (this.profile.skyrl) return this.createModelSkyrl(body);
    this.session(body.session_id);
    this.checkBaseModel(body.base_model, 'base_model');
    const idKey = body.model_seq_id !== undefined ? `${body.session_id}:${body.model_seq_id}` : null;
    const key = payloadKey('create_model', body);
    const prev = idKey !== null ? this.createdBySeq.get(idKey) : undefined;
    if (prev !== undefined) {
      if (prev.key !== key)
        throw new OpenClawError(
          'invalid_request',
          `model_seq_id ${body.model_seq_id} was already used in this session for a different create_model`,
          { status: 409, param: 'model_seq_id' },
        );
      return { request_id: prev.requestId, model_id: prev.modelId };
    }
    const m = this.addModel(body);
    const requestId = this.futures.track(m.queue.first(() => this.call('create_model', { modelId: m.id, seed: m.loraSeed })));
    if (idKey !== null) this.createdBySeq.set(idKey, { key, requestId, modelId: m.id });
    return { request_id: requestId, model_id: m.id };
  }

  private addModel(body: Body<typeof S.CreateModel>): ModelEntry {
    const id = this.newId('model');
    const track = (work: Promise<unknown>) => this.futures.track(work);
    const queue: ModelQueue =
      this.profile.order === 'arrival'
        ? new ArrivalQueue(track, this.profile.idempotentOps ?? new Set())
        : new SeqQueue(track, this.opts.seqGapMs ?? 10_000);
    const m: ModelEntry = {
      id,
      baseModel: body.base_model,
      loraRank: body.lora_config?.rank ?? null,
      loraSeed: body.lora_config?.seed ?? null,
      sessionId: body.session_id,
      queue,
      status: 'created',
      loaded: false,
      slot: null,
    };
    this.models.set(id, m);
    return m;
  }

  /**
   * SkyRL's create_model (api.py L983-1022): no model_seq_id idempotency, no base-model check (the
   * engine serves its one base model whatever the request says); the model row exists at once and
   * the backend's refusal (LoRA slots, rank, multi-tenancy) fails the future.
   */
  private createModelSkyrl(body: Body<typeof S.CreateModel>): Record<string, unknown> {
    if (body.lora_config === undefined || body.lora_config === null)
      throw unprocessable(['lora_config'], 'Field required', 'missing', body);
    this.session(body.session_id);
    const rank = body.lora_config.rank;
    const seed = body.lora_config.seed ?? Math.floor(Math.random() * 2 ** 31);
    const m = this.addModel({ ...body, lora_config: { ...body.lora_config, seed } });
    const requestId = this.futures.track(
      m.queue.first(async () => {
        this.admitModel(m, rank);
        m.loaded = true;
        await this.call('create_model', { modelId: m.id, seed });
        return {
          model_id: m.id,
          base_model: this.opts.baseModel,
          lora_config: { rank, alpha: 32, seed, train_attn: true, train_mlp: true, train_unembed: false },
        };
      }),
    );
    return {
      model_id: m.id,
      base_model: body.base_model,
      lora_config: { rank, seed: body.lora_config.seed ?? null },
      status: 'created',
      request_id: requestId,
    };
  }

  /** The backend's admission rule for a new model (throws the real error text). */
  private admitModel(m: ModelEntry, rank: number): void {
    if (this.profile.lora === 'slots') {
      // jax.py L573-584: slot 0 is the base model; user models take the lowest free of 1 … N−1.
      const max = this.maxLoraAdapters ?? 32;
      const used = new Set([...this.models.values()].filter((o) => o.loaded && o.slot !== null).map((o) => o.slot));
      let slot = 1;
      while (slot < max && used.has(slot)) slot++;
      if (slot >= max) throw new OpenClawError('invalid_request', `Maximum number of LoRA adapters (${max}) reached`);
      const maxRank = this.profile.maxLoraRank ?? 32;
      if (!(rank > 0 && rank <= maxRank)) throw new OpenClawError('invalid_request', `LoRA rank ${rank} must be between 1 and ${maxRank}`);
      m.slot = slot;
    } else if (this.profile.lora === 'signature') {
      // skyrl_train_backend.py L458-494: one runtime; more policies only as LoRA adapters of the
      // same (rank, alpha), and not next to a full fine-tuning model.
      if (this.trainSignature !== null) {
        if (rank <= 0)
          throw new OpenClawError(
            'invalid_request',
            "SkyRLTrainBackend already has a 'policy' model; multi-tenant training is only supported for LoRA (rank > 0)",
          );
        if (this.trainSignature === 'fft')
          throw new OpenClawError(
            'invalid_request',
            'Cannot register an additional LoRA adapter: the first policy model was created without LoRA. Recreate the server with a LoRA-enabled first model.',
          );
        if (rank !== this.trainSignature)
          throw new OpenClawError(
            'invalid_request',
            `LoRA signature mismatch for model '${m.id}': got (rank, alpha)=(${rank}, 32), first adapter registered with (${this.trainSignature}, 32). Multi-LoRA with the SkyRLTrainBackend requires identical (rank, alpha) across all adapters; target_modules is fixed server-side.`,
          );
      } else this.trainSignature = rank > 0 ? rank : 'fft';
    }
  }

  private model(id: string): ModelEntry {
    const m = this.models.get(id);
    if (m === undefined) {
      if (this.profile.skyrl) throw new DetailError(404, 'Model not found');
      throw new OpenClawError(
        'not_found',
        `no model ${id} on this server (models do not survive a restart: create_model, then load_weights from a saved path)`,
        { param: 'model_id' },
      );
    }
    return m;
  }

  getInfo(body: Body<typeof S.ModelRef>): Record<string, unknown> {
    const m = this.model(body.model_id);
    if (this.profile.skyrl)
      // api.py L1054-1064 (ModelInfoResponse): no is_lora / lora_rank at the top.
      return {
        model_id: m.id,
        status: m.status,
        model_data: { base_model: m.baseModel, lora_config: { rank: m.loraRank ?? 0, seed: null }, model_name: m.baseModel },
      };
    return {
      type: 'get_info',
      model_id: m.id,
      status: 'ready',
      // The embedded model has no LoRA: every weight trains, whatever lora_config asked for.
      is_lora: false,
      lora_rank: null,
      model_data: {
        arch: 'openclaw-embedded-gpt',
        model_name: m.baseModel,
        base_model: m.baseModel,
        tokenizer_id: m.baseModel,
        requested_lora_rank: m.loraRank,
      },
    };
  }

  /**
   * Frees a model after the calls already queued on it. Hosted: later calls on it are 404s.
   * SkyRL (api.py L1025-1046, engine.py L526-540): the row stays ('unloading', then 'unloaded'),
   * later calls are accepted and their futures fail; unloading twice succeeds.
   */
  unloadModel(body: Body<typeof S.ModelRef>): Record<string, unknown> {
    const m = this.model(body.model_id);
    if (this.profile.skyrl) {
      if (m.status !== 'unloaded') m.status = 'unloading';
      const requestId = this.futures.track(
        m.queue.first(async () => {
          await this.unloadNow(m, true);
          return { model_id: m.id, status: 'unloaded', type: 'unload_model' };
        }),
      );
      return { request_id: requestId, model_id: m.id };
    }
    this.models.delete(m.id);
    const requestId = this.futures.track(m.queue.first(() => this.call('unload_model', { modelId: m.id })));
    return { request_id: requestId, model_id: m.id };
  }

  /** The futures answer of a queued call: hosted {request_id, model_id}; SkyRL's FutureResponse (api.py L786-789). */
  private accepted(requestId: string, modelId: string): Record<string, unknown> {
    return this.profile.skyrl
      ? { future_id: requestId, status: 'pending', request_id: requestId }
      : { request_id: requestId, model_id: modelId };
  }

  /** Queues a training call on a model. */
  private enqueue(
    op: keyof WorkerOps,
    body: { model_id: string; seq_id?: number | null } & Record<string, unknown>,
    args: WorkerOps[keyof WorkerOps],
    before?: (m: ModelEntry) => void,
    then: (result: unknown) => unknown = (r) => r,
  ): Record<string, unknown> {
    const m = this.model(body.model_id);
    const seqId = body.seq_id ?? undefined;
    const run = async () => {
      if (this.profile.skyrl && !m.loaded) {
        // engine.py L33-42 (single requests) and L239-242 (batched passes).
        const batched = op === 'forward' || op === 'forward_backward';
        throw new OpenClawError(
          'invalid_request',
          batched ? `Model ${m.id} not loaded` : `Model ${m.id} not loaded (likely stale request from previous server)`,
        );
      }
      return then(await this.call(op, args));
    };
    const key = payloadKey(op, body);
    const requestId =
      m.queue instanceof ArrivalQueue
        ? m.queue.submit(op, seqId, key, run, before && (() => before(m)))
        : m.queue.submit(seqId, key, run, before && (() => before(m)));
    return this.accepted(requestId, m.id);
  }

  forwardBackward(body: Body<typeof S.ForwardBackward>, backward: true): Record<string, unknown>;
  forwardBackward(body: Body<typeof S.Forward>, backward: false): Record<string, unknown>;
  forwardBackward(body: Body<typeof S.ForwardBackward> | Body<typeof S.Forward>, backward: boolean): Record<string, unknown> {
    this.model(body.model_id);
    const field = backward ? 'forward_backward_input' : 'forward_input';
    const input = (body as Record<string, unknown>)[field] as S.FbInput;
    const args = { modelId: body.model_id, ...this.learnerInput(input, field) };
    return this.enqueue(backward ? 'forward_backward' : 'forward', body, args);
  }

  /** Checks a forward_backward input against the base model and converts it for the learner. */
  private learnerInput(
    input: S.FbInput,
    field: string,
  ): { lossFn: S.FbInput['loss_fn']; config: LearnerLossConfig; datums: LearnerDatum[] } {
    const cfg = input.loss_fn_config ?? {};
    // SkyRL also takes value_clip for ppo (a critic setting; no critic here: accepted, unused).
    const allowed =
      input.loss_fn === 'ppo' ? ['clip_low_threshold', 'clip_high_threshold', ...(this.profile.skyrl ? ['value_clip'] : [])] : [];
    const extra = Object.keys(cfg).filter((k) => !allowed.includes(k));
    if (extra.length > 0 && this.profile.skyrl) {
      // api.py L625-642, a model validator: FastAPI's 422.
      const bad = `[${extra
        .sort()
        .map((k) => `'${k}'`)
        .join(', ')}]`;
      throw unprocessable(
        [field],
        allowed.length > 0
          ? `Value error, Invalid loss_fn_config keys for loss_fn='${input.loss_fn}': ${bad}. Allowed keys: [${allowed
              .sort()
              .map((k) => `'${k}'`)
              .join(', ')}].`
          : `Value error, loss_fn='${input.loss_fn}' does not accept loss_fn_config keys. Received: ${bad}.`,
      );
    }
    if (extra.length > 0) {
      throw invalidRequest(
        `${field}.loss_fn_config: loss_fn '${input.loss_fn}' takes ${allowed.length > 0 ? allowed.join(', ') : 'no config keys'}, got ${extra.join(', ')}`,
        `${field}.loss_fn_config`,
      );
    }
    const config: LearnerLossConfig = {
      clipLow: cfg.clip_low_threshold ?? DEFAULT_CLIP.clipLow,
      clipHigh: cfg.clip_high_threshold ?? DEFAULT_CLIP.clipHigh,
      reduction: this.profile.reduction,
      clamp: this.profile.logRatioClamp,
    };
    if (!(config.clipLow >= 0 && config.clipLow <= 1 && config.clipHigh >= 1)) {
      throw invalidRequest(
        `${field}.loss_fn_config: need 0 ≤ clip_low_threshold ≤ 1 ≤ clip_high_threshold (ratio bounds, e.g. 0.8 and 1.28), got ${config.clipLow} and ${config.clipHigh}`,
        `${field}.loss_fn_config`,
      );
    }
    const needs = input.loss_fn === 'cross_entropy' ? ['target_tokens'] : ['target_tokens', 'logprobs', 'advantages'];
    const datums = input.data.map((d, b): LearnerDatum => {
      const at = `${field}.data[${b}]`;
      const tokens = this.tokens(d.model_input, `${at}.model_input`);
      const n = tokens.length;
      if (n > this.config.ctx)
        throw new OpenClawError('context_length', `${at}.model_input has ${n} tokens; the embedded model's context is ${this.config.ctx}`, {
          param: `${at}.model_input`,
        });
      const inputs = d.loss_fn_inputs;
      for (const name of needs)
        if (inputs[name] === undefined)
          throw invalidRequest(`${at}.loss_fn_inputs.${name} is required by loss_fn '${input.loss_fn}'`, `${at}.loss_fn_inputs.${name}`);
      const series = (name: string): number[] | undefined => {
        const t = inputs[name];
        if (t === undefined) return undefined;
        if (t.data.length !== n)
          throw invalidRequest(
            `${at}.loss_fn_inputs.${name} has ${t.data.length} values for ${n} model_input tokens (one per position: target_tokens = sequence[1:])`,
            `${at}.loss_fn_inputs.${name}`,
          );
        return t.data;
      };
      const targets = series('target_tokens') as number[];
      this.checkIds(targets, `${at}.loss_fn_inputs.target_tokens`);
      return { input: tokens, targets, weights: series('weights'), logprobs: series('logprobs'), advantages: series('advantages') };
    });
    return { lossFn: input.loss_fn, config, datums };
  }

  /** The token ids of a ModelInput (encoded_text chunks only). */
  private tokens(input: Body<typeof S.ModelInput>, param: string): number[] {
    const ids: number[] = [];
    input.chunks.forEach((c, i) => {
      if ((c.type ?? 'encoded_text') !== 'encoded_text' || c.tokens === undefined) {
        throw invalidRequest(
          `${param}.chunks[${i}]: only encoded_text chunks (token ids) are supported by the embedded model, got type '${c.type ?? 'unknown'}'`,
          `${param}.chunks[${i}]`,
        );
      }
      ids.push(...c.tokens);
    });
    if (ids.length === 0) throw invalidRequest(`${param} has no tokens`, param);
    this.checkIds(ids, param);
    return ids;
  }

  private checkIds(ids: readonly number[], param: string): void {
    for (const id of ids) {
      if (!Number.isInteger(id) || id < 0 || id >= this.config.vocabSize)
        throw invalidRequest(`${param} contains token id ${id}, outside the model's vocabulary of ${this.config.vocabSize}`, param);
    }
  }

  optimStep(body: Body<typeof S.OptimStep>): Record<string, unknown> {
    const a = body.adam_params;
    const p = this.profile;
    const adam =
      p.optimizer === 'server_config'
        ? {
            // Only the learning rate reaches SkyRL-Train's optimizer (skyrl_train_backend.py L1030-1035).
            learningRate: a.learning_rate,
            beta1: SKYRL_TRAIN_OPTIMIZER.beta1,
            beta2: SKYRL_TRAIN_OPTIMIZER.beta2,
            eps: SKYRL_TRAIN_OPTIMIZER.eps,
            weightDecay: SKYRL_TRAIN_OPTIMIZER.weightDecay,
            gradClipNorm: SKYRL_TRAIN_OPTIMIZER.gradClipNorm,
          }
        : {
            learningRate: a.learning_rate,
            beta1: a.beta1,
            beta2: a.beta2,
            eps: a.eps,
            weightDecay: a.weight_decay,
            // SkyRL's AdamParams has no grad_clip_norm: pydantic drops the field (api.py L664-678).
            gradClipNorm: p.optimizer === 'request' ? a.grad_clip_norm : 0,
          };
    const mode = { meanOverDatums: p.reduction === 'seq_mean_then_datum_mean', stepWhenEmpty: p.name === 'skyrl-jax' };
    return this.enqueue('optim_step', body, { modelId: body.model_id, adam, mode });
  }

  /** SkyRL: a checkpoint row must be new (api.py L411-439); it is pending until its save ends. */
  private newCheckpoint(m: ModelEntry, kind: TinkerPath['kind'], name: string): string {
    const key = `${m.id}/${kind}/${name}`;
    if (this.checkpoints.has(key) || existsSync(pathDir(this.opts.stateDir, { modelId: m.id, kind, name })))
      throw new DetailError(409, `Checkpoint '${name}' already exists for model '${m.id}'`);
    this.checkpoints.set(key, 'pending');
    return key;
  }

  /** SkyRL's validate_checkpoint (api.py L1434-1449): 404 unknown, 425 pending, 500 failed. */
  private checkCheckpoint(path: TinkerPath): void {
    const status =
      this.checkpoints.get(`${path.modelId}/${path.kind}/${path.name}`) ??
      (existsSync(pathDir(this.opts.stateDir, path)) ? 'completed' : undefined);
    if (status === undefined) throw new DetailError(404, `Checkpoint not found: ${path.modelId}/${path.name}`);
    if (status === 'pending') throw new DetailError(425, 'Checkpoint is still being created');
    if (status === 'failed') throw new DetailError(500, 'Checkpoint creation failed: see the server log');
  }

  /** Marks a SkyRL checkpoint row done or failed when its save settles. */
  private settleCheckpoint(key: string | null, work: Record<string, unknown>): Record<string, unknown> {
    if (key === null) return work;
    const requestId = String(work.request_id);
    void this.watch(requestId).then((ok) => this.checkpoints.set(key, ok ? 'completed' : 'failed'));
    return work;
  }

  /** Resolves when a future settles: true when it succeeded. */
  private async watch(requestId: string): Promise<boolean> {
    for (;;) {
      const st = await this.futures.wait(requestId, 60_000);
      if (st.status !== 'pending') return st.status === 'done';
    }
  }

  saveWeightsForSampler(body: Body<typeof S.SaveForSampler>): Record<string, unknown> {
    const hasSs = body.sampling_session_seq_id !== undefined && body.sampling_session_seq_id !== null;
    if (this.profile.skyrl) {
      // api.py L687-698, L1256-1298; the result path has no `sampler_weights/` (engine.py L690-700).
      if (!body.path && (!hasSs || body.seq_id === undefined || body.seq_id === null))
        throw unprocessable([], "Value error, Either 'path' or both 'sampling_session_seq_id' and 'seq_id' must be provided");
      const m = this.model(body.model_id);
      const name = body.path || `ss${body.sampling_session_seq_id}_seq${body.seq_id}`;
      const withSession = hasSs && body.seq_id !== undefined && body.seq_id !== null;
      const key = this.newCheckpoint(m, 'sampler_weights', name);
      const sid = withSession ? this.newId('sampling') : null;
      const path: TinkerPath = { modelId: m.id, kind: 'sampler_weights', name };
      if (sid !== null) this.samplingSessions.set(sid, { path: null, baseModel: null, modelPath: formatPath(path) });
      this.samplerPaths.add(formatPath(path));
      return this.settleCheckpoint(
        key,
        this.enqueue('save_weights_for_sampler', body, { modelId: m.id, name }, undefined, () => ({
          path: withSession ? null : `tinker://${m.id}/${name}`,
          type: 'save_weights_for_sampler',
          sampling_session_id: sid,
        })),
      );
    }
    const name = body.path ?? (hasSs ? `ss${body.sampling_session_seq_id}_seq${body.seq_id ?? 0}` : null);
    if (name === null) throw invalidRequest('save_weights_for_sampler needs a path (a name) or sampling_session_seq_id', 'path');
    const path: TinkerPath = { modelId: body.model_id, kind: 'sampler_weights', name };
    // The SDK's save_weights_and_get_sampling_client (no path) samples through a sampling session.
    const sid = body.path === undefined || body.path === null ? this.newId('sampling') : null;
    const answer = this.enqueue('save_weights_for_sampler', body, { modelId: body.model_id, name }, undefined, (r) =>
      sid === null ? r : { ...(r as object), sampling_session_id: sid },
    );
    this.samplerPaths.add(formatPath(path));
    if (sid !== null) this.samplingSessions.set(sid, { path });
    return answer;
  }

  saveWeights(body: Body<typeof S.SaveWeights>): Record<string, unknown> {
    if (this.profile.skyrl) {
      // api.py L772-775, L1233-1253: no seq_id field (ignored), so a resubmitted save is a
      // second checkpoint row under the same name: 409.
      const m = this.models.get(body.model_id);
      if (m === undefined) throw new DetailError(404, `Model '${body.model_id}' not found`);
      const key = this.newCheckpoint(m, 'weights', body.path);
      const { seq_id: _ignored, ...rest } = body;
      return this.settleCheckpoint(
        key,
        this.enqueue('save_weights', rest, { modelId: m.id, name: body.path }, undefined, (r) => ({
          ...(r as object),
          type: 'save_weights',
        })),
      );
    }
    return this.enqueue('save_weights', body, { modelId: body.model_id, name: body.path });
  }

  loadWeights(body: Body<typeof S.LoadWeights>): Record<string, unknown> {
    if (this.profile.skyrl) return this.loadWeightsSkyrl(body);
    const path = parsePath(body.path, 'path');
    if (path.kind !== 'weights')
      throw invalidRequest(
        `load_weights takes a training-state path tinker://<model_id>/weights/<name>, got a sampler path '${body.path}'`,
        'path',
      );
    if (!existsSync(pathDir(this.opts.stateDir, path)))
      throw new OpenClawError('not_found', `no saved weights at ${body.path} on this server`, { param: 'path' });
    return this.enqueue('load_weights', body, { modelId: body.model_id, path, optimizer: body.optimizer ?? true }, (m) => {
      if (m.queue.submitted > 0)
        throw invalidRequest(
          `load_weights must be a model's first request, but model ${m.id} has already had ${m.queue.submitted}: create a new model and load into it`,
          'model_id',
        );
    });
  }

  /** api.py L1182-1230: only as a model's first request (400 naming the seq_id), weights paths only. */
  private loadWeightsSkyrl(body: Body<typeof S.LoadWeights>): Record<string, unknown> {
    const m = this.model(body.model_id);
    const prior = m.queue.submitted;
    if (prior > 0) throw new DetailError(400, `LoadWeights is not permitted with seq_id ${body.seq_id ?? prior + 1}`);
    const parsed = /^tinker:\/\/([^/]+)\/weights\/([^/]+)$/.exec(body.path);
    if (parsed === null) throw new DetailError(400, 'request.path must be in format tinker://source_model_id/weights/checkpoint_id');
    const path: TinkerPath = { modelId: parsed[1], kind: 'weights', name: parsed[2] };
    this.checkCheckpoint(path);
    const { seq_id: _seq, ...rest } = body;
    return this.enqueue('load_weights', rest, { modelId: m.id, path, optimizer: body.optimizer ?? true }, undefined, () => ({
      type: 'load_weights',
    }));
  }

  createSamplingSession(body: Body<typeof S.CreateSamplingSession>): Record<string, unknown> {
    if (this.profile.skyrl) {
      // api.py L840-845, L939-958: the source is stored as given and checked when sampled.
      if (body.sampling_session_seq_id === undefined) throw unprocessable(['sampling_session_seq_id'], 'Field required', 'missing', body);
      this.session(body.session_id);
      if (((body.base_model ?? null) === null) === ((body.model_path ?? null) === null))
        throw new DetailError(400, 'Exactly one of base_model or model_path must be provided');
      const sid = this.newId('sampling');
      this.samplingSessions.set(sid, { path: null, baseModel: body.base_model ?? null, modelPath: body.model_path ?? null });
      return { type: 'create_sampling_session', sampling_session_id: sid };
    }
    this.session(body.session_id);
    const path = this.samplingSource(body.base_model, body.model_path);
    const sid = this.newId('sampling');
    this.samplingSessions.set(sid, { path });
    return { type: 'create_sampling_session', sampling_session_id: sid };
  }

  /** null = the base model, else a known sampler path. */
  private samplingSource(baseModel: string | null | undefined, modelPath: string | null | undefined): TinkerPath | null {
    const hasBase = baseModel !== undefined && baseModel !== null;
    const hasPath = modelPath !== undefined && modelPath !== null;
    if (hasBase === hasPath)
      throw invalidRequest(
        'send exactly one of base_model and model_path (or a sampling_session_id)',
        hasBase ? 'model_path' : 'base_model',
      );
    if (hasBase) {
      this.checkBaseModel(baseModel, 'base_model');
      return null;
    }
    const path = parsePath(modelPath as string, 'model_path');
    if (path.kind !== 'sampler_weights')
      throw invalidRequest(
        `model_path must be a sampler path (tinker://<model_id>/sampler_weights/<name>, from save_weights_for_sampler), got '${modelPath}'`,
        'model_path',
      );
    if (!this.samplerPaths.has(formatPath(path)) && !existsSync(pathDir(this.opts.stateDir, path))) {
      throw new OpenClawError('not_found', `no sampler weights at ${modelPath} on this server (save_weights_for_sampler makes them)`, {
        param: 'model_path',
      });
    }
    return path;
  }

  /**
   * SkyRL's sampling source (api.py L1301-1341): a sampling session's stored source or the
   * request's; a base model is checked only by the engine (the future fails, engine.py L243-245);
   * a path may be tinker://model/ckpt or tinker://model/sampler_weights/ckpt, its model and a
   * finished checkpoint must exist. A model of an earlier run counts when its files are on disk
   * (SkyRL's database outlives a restart).
   */
  private samplingSourceSkyrl(body: Body<typeof S.Asample>): { path: TinkerPath | null; wrongBase: string | null } {
    let baseModel = body.base_model ?? null;
    let modelPath = body.model_path ?? null;
    if (body.sampling_session_id !== undefined && body.sampling_session_id !== null) {
      if (body.sampling_session_id.includes(':'))
        throw new DetailError(400, "sampling_session_id must not contain ':' (the routing-key delimiter)");
      if (body.seq_id === undefined || body.seq_id === null)
        throw unprocessable([], "Value error, 'seq_id' must be provided when 'sampling_session_id' is used");
      const s = this.samplingSessions.get(body.sampling_session_id);
      if (s === undefined) throw new DetailError(404, 'Sampling session not found');
      baseModel = s.baseModel ?? null;
      modelPath = s.modelPath ?? null;
    } else if ((baseModel === null) === (modelPath === null)) {
      throw unprocessable(
        [],
        "Value error, When 'sampling_session_id' is not provided, exactly one of 'base_model' or 'model_path' must be provided",
      );
    }
    if (baseModel) return { path: null, wrongBase: baseModel === this.opts.baseModel ? null : baseModel };
    const m = /^tinker:\/\/([^/]+)\/(?:(sampler_weights)\/)?([^/]+)$/.exec(modelPath ?? '');
    if (m === null)
      throw new DetailError(400, 'model_path must be tinker://model_id/checkpoint_id or tinker://model_id/sampler_weights/checkpoint_id');
    const path: TinkerPath = { modelId: m[1], kind: 'sampler_weights', name: m[3] };
    if (!this.models.has(path.modelId) && !existsSync(pathDir(this.opts.stateDir, path))) throw new DetailError(404, 'Model not found');
    this.checkCheckpoint(path);
    return { path, wrongBase: null };
  }

  asample(body: Body<typeof S.Asample>): Record<string, unknown> {
    let path: TinkerPath | null;
    let wrongBase: string | null = null;
    if (this.profile.skyrl) ({ path, wrongBase } = this.samplingSourceSkyrl(body));
    else if (body.sampling_session_id !== undefined && body.sampling_session_id !== null) {
      const s = this.samplingSessions.get(body.sampling_session_id);
      if (s === undefined)
        throw new OpenClawError('not_found', `no sampling session ${body.sampling_session_id} on this server`, {
          param: 'sampling_session_id',
        });
      path = s.path;
    } else {
      path = this.samplingSource(body.base_model, body.model_path);
    }
    const sp = body.sampling_params;
    if (sp.max_tokens === undefined || sp.max_tokens === null || sp.max_tokens <= 0) {
      // SkyRL's SamplingParams.to_types (api.py L709-713): HTTP 400s, not validation errors.
      if (this.profile.skyrl)
        throw new DetailError(
          400,
          sp.max_tokens === undefined || sp.max_tokens === null
            ? 'max_tokens is currently required'
            : 'max_tokens must be a positive number',
        );
      throw invalidRequest(
        "Invalid value for 'sampling_params.max_tokens': max_tokens is required and must be a positive integer",
        'sampling_params.max_tokens',
        'invalid_value',
      );
    }
    const stop = sp.stop ?? [];
    const stopTokens = stop.filter((s): s is number => typeof s === 'number');
    const stopStrings = stop.filter((s): s is string => typeof s === 'string');
    if (stopTokens.length > 0 && stopStrings.length > 0) {
      if (this.profile.skyrl) throw new DetailError(400, 'stop must be either all integers (token IDs) or all strings, not mixed');
      throw invalidRequest('sampling_params.stop must be all strings or all token ids, not both', 'sampling_params.stop');
    }
    if (sp.top_k > 0 && sp.top_k < this.config.vocabSize)
      throw invalidRequest(
        `sampling_params.top_k ${sp.top_k} is not supported by the embedded sampler: send -1 (top_p is supported)`,
        'sampling_params.top_k',
      );
    const prompt = this.tokens(body.prompt, 'prompt');
    if (prompt.length >= this.config.ctx)
      throw new OpenClawError(
        'context_length',
        `prompt has ${prompt.length} tokens and leaves no room in the embedded model's context of ${this.config.ctx}`,
        { param: 'prompt' },
      );
    this.checkIds(stopTokens, 'sampling_params.stop');
    const args: SampleArgs = {
      path,
      prompt,
      numSamples: body.num_samples,
      maxTokens: sp.max_tokens,
      temperature: sp.temperature,
      topP: sp.top_p,
      stopTokens,
      stopStrings,
      seed: sp.seed ?? null,
      // SkyRL: a positive top-k implies prompt log-probs (api.py L1355-1357).
      promptLogprobs: body.prompt_logprobs === true || (this.profile.skyrl && body.topk_prompt_logprobs > 0),
      topkPromptLogprobs: body.topk_prompt_logprobs,
    };
    const work =
      wrongBase !== null
        ? Promise.reject(
            new OpenClawError('invalid_request', `Engine is configured for '${this.opts.baseModel}' but request specified '${wrongBase}'`),
          )
        : this.call('sample', args);
    const requestId = this.futures.track(work);
    return this.profile.skyrl ? { future_id: requestId, status: 'pending', request_id: requestId } : { request_id: requestId };
  }

  /**
   * retrieve_future. Hosted: the result, try_again after `pollMs`, or the failure as
   * {error, category}. SkyRL (api.py L1385-1424): the result, 408 after the long poll, 400
   * {"detail"} for a failure, 404 for an id it never had, 500 for one that is not an integer.
   */
  async retrieve(body: Body<typeof S.RetrieveFuture>): Promise<Record<string, unknown>> {
    if (this.profile.skyrl && !/^-?\d+$/.test(body.request_id.trim())) throw new DetailError(500, 'Internal Server Error');
    const state = await this.futures.wait(body.request_id, this.opts.pollMs ?? 3000);
    if (state.status === 'pending') {
      if (this.profile.skyrl) throw new DetailError(408, 'Timeout waiting for result');
      return { type: 'try_again', request_id: body.request_id, queue_state: 'active' };
    }
    if (state.status === 'failed') {
      const message = state.error instanceof Error ? state.error.message : String(state.error);
      if (this.profile.skyrl) throw new DetailError(400, message);
      return { error: message, category: category(state.error) };
    }
    return state.value as Record<string, unknown>;
  }
}
