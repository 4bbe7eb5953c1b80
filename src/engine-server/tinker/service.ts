// The Tinker API on the embedded engine, main-thread side: sessions, training models, the per-model
// seq_id queues (sequence.ts), futures (futures.ts), sampling sessions and known sampler paths.
// Request bodies arrive parsed (schemas.ts) and are checked against the base model here (token ids
// in the vocabulary, lengths within the context, loss inputs present and aligned), so a bad call
// is a 400 at once rather than a failed future; the compute runs in the Tinker worker thread
// (handler.ts). Futures fail with {"error", "category": "user" | "server"}.

import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { OpenClawError, invalidRequest } from '../../errors/index.ts';
import type { GptConfig } from '../../engines/embedded/model.ts';
import { ThreadClient } from '../../util/thread/client.ts';
import { FutureStore } from './futures.ts';
import type { SampleArgs, WorkerInfo, WorkerOps } from './handler.ts';
import { LOSS_FNS, type LearnerDatum, type LossConfig } from './learner.ts';
import { formatPath, parsePath, pathDir, type TinkerPath } from './paths.ts';
import type { z } from 'zod';
import type * as S from './schemas.ts';
import { SeqQueue } from './sequence.ts';

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
  /** How long a model's queue waits for a missing seq_id before moving on (default 10000 ms). */
  seqGapMs?: number;
}

type Body<T extends z.ZodTypeAny> = z.infer<T>;

interface ModelEntry {
  id: string;
  baseModel: string;
  loraRank: number | null;
  queue: SeqQueue;
}

/** The one ppo default the API documents: ratio bounds 0.8 / 1.2. */
const DEFAULT_CLIP: LossConfig = { clipLow: 0.8, clipHigh: 1.2 };

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
  private readonly futures = new FutureStore();
  private readonly sessions = new Map<string, { heartbeat: number }>();
  private readonly models = new Map<string, ModelEntry>();
  private readonly createdBySeq = new Map<string, { key: string; requestId: string; modelId: string }>();
  private readonly samplingSessions = new Map<string, { path: TinkerPath | null }>();
  /** Sampler paths saved by this run (older runs' are found on disk). */
  private readonly samplerPaths = new Set<string>();

  private constructor(
    private readonly opts: TinkerServerOptions,
    private readonly worker: ThreadClient,
    readonly config: GptConfig,
  ) {}

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
      } satisfies WorkerOps['init']);
      return new TinkerService(opts, worker, info.config);
    } catch (err) {
      await worker.terminate();
      throw err;
    }
  }

  /** Stops the worker; pending futures fail. */
  async close(): Promise<void> {
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
    return { supported_models: [{ model_name: this.opts.baseModel }], supported_loss_fns: [...LOSS_FNS] };
  }

  createSession(_body: Body<typeof S.CreateSession>): Record<string, unknown> {
    const id = `session_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    this.sessions.set(id, { heartbeat: Date.now() });
    return { type: 'create_session', session_id: id, info_message: null, warning_message: null, error_message: null };
  }

  heartbeat(body: Body<typeof S.SessionRef>): Record<string, unknown> {
    this.session(body.session_id).heartbeat = Date.now();
    return { type: 'session_heartbeat' };
  }

  private session(id: string): { heartbeat: number } {
    const s = this.sessions.get(id);
    if (s === undefined)
      throw new OpenClawError('not_found', `no session ${id} on this server (sessions do not survive a restart): call create_session`, {
        param: 'session_id',
      });
    return s;
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
    const id = `model_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const queue = new SeqQueue((work) => this.futures.track(work), this.opts.seqGapMs ?? 10_000);
    this.models.set(id, { id, baseModel: body.base_model, loraRank: body.lora_config?.rank ?? null, queue });
    const requestId = this.futures.track(
      queue.first(() => this.call('create_model', { modelId: id, seed: body.lora_config?.seed ?? null })),
    );
    if (idKey !== null) this.createdBySeq.set(idKey, { key, requestId, modelId: id });
    return { request_id: requestId, model_id: id };
  }

  private model(id: string): ModelEntry {
    const m = this.models.get(id);
    if (m === undefined)
      throw new OpenClawError(
        'not_found',
        `no model ${id} on this server (models do not survive a restart: create_model, then load_weights from a saved path)`,
        { param: 'model_id' },
      );
    return m;
  }

  getInfo(body: Body<typeof S.ModelRef>): Record<string, unknown> {
    const m = this.model(body.model_id);
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

  /** Frees a model after the calls already queued on it; later calls on it are 404s. */
  unloadModel(body: Body<typeof S.ModelRef>): Record<string, unknown> {
    const m = this.model(body.model_id);
    this.models.delete(m.id);
    const requestId = this.futures.track(m.queue.first(() => this.call('unload_model', { modelId: m.id })));
    return { request_id: requestId, model_id: m.id };
  }

  /** Queues a seq-ordered training call on a model. */
  private enqueue(
    op: keyof WorkerOps,
    body: { model_id: string; seq_id?: number } & Record<string, unknown>,
    args: WorkerOps[keyof WorkerOps],
    before?: (m: ModelEntry) => void,
    then: (result: unknown) => unknown = (r) => r,
  ): Record<string, unknown> {
    const m = this.model(body.model_id);
    const requestId = m.queue.submit(body.seq_id, payloadKey(op, body), () => this.call(op, args).then(then), before && (() => before(m)));
    return { request_id: requestId, model_id: m.id };
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
  private learnerInput(input: S.FbInput, field: string): { lossFn: S.FbInput['loss_fn']; config: LossConfig; datums: LearnerDatum[] } {
    const cfg = input.loss_fn_config ?? {};
    const allowed = input.loss_fn === 'ppo' ? ['clip_low_threshold', 'clip_high_threshold'] : [];
    const extra = Object.keys(cfg).filter((k) => !allowed.includes(k));
    if (extra.length > 0) {
      throw invalidRequest(
        `${field}.loss_fn_config: loss_fn '${input.loss_fn}' takes ${allowed.length > 0 ? allowed.join(', ') : 'no config keys'}, got ${extra.join(', ')}`,
        `${field}.loss_fn_config`,
      );
    }
    const config = { clipLow: cfg.clip_low_threshold ?? DEFAULT_CLIP.clipLow, clipHigh: cfg.clip_high_threshold ?? DEFAULT_CLIP.clipHigh };
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
    return this.enqueue('optim_step', body, {
      modelId: body.model_id,
      adam: {
        learningRate: a.learning_rate,
        beta1: a.beta1,
        beta2: a.beta2,
        eps: a.eps,
        weightDecay: a.weight_decay,
        gradClipNorm: a.grad_clip_norm,
      },
    });
  }

  saveWeightsForSampler(body: Body<typeof S.SaveForSampler>): Record<string, unknown> {
    const name =
      body.path ??
      (body.sampling_session_seq_id !== undefined && body.sampling_session_seq_id !== null
        ? `ss${body.sampling_session_seq_id}_seq${body.seq_id ?? 0}`
        : null);
    if (name === null) throw invalidRequest('save_weights_for_sampler needs a path (a name) or sampling_session_seq_id', 'path');
    const path: TinkerPath = { modelId: body.model_id, kind: 'sampler_weights', name };
    // The SDK's save_weights_and_get_sampling_client (no path) samples through a sampling session.
    const sid = body.path === undefined || body.path === null ? `sampling_${randomUUID().replace(/-/g, '').slice(0, 12)}` : null;
    const answer = this.enqueue('save_weights_for_sampler', body, { modelId: body.model_id, name }, undefined, (r) =>
      sid === null ? r : { ...(r as object), sampling_session_id: sid },
    );
    this.samplerPaths.add(formatPath(path));
    if (sid !== null) this.samplingSessions.set(sid, { path });
    return answer;
  }

  saveWeights(body: Body<typeof S.SaveWeights>): Record<string, unknown> {
    return this.enqueue('save_weights', body, { modelId: body.model_id, name: body.path });
  }

  loadWeights(body: Body<typeof S.LoadWeights>): Record<string, unknown> {
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

  createSamplingSession(body: Body<typeof S.CreateSamplingSession>): Record<string, unknown> {
    this.session(body.session_id);
    const path = this.samplingSource(body.base_model, body.model_path);
    const sid = `sampling_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
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

  asample(body: Body<typeof S.Asample>): Record<string, unknown> {
    let path: TinkerPath | null;
    if (body.sampling_session_id !== undefined && body.sampling_session_id !== null) {
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
    const stop = sp.stop ?? [];
    const stopTokens = stop.filter((s): s is number => typeof s === 'number');
    this.checkIds(stopTokens, 'sampling_params.stop');
    const args: SampleArgs = {
      path,
      prompt,
      numSamples: body.num_samples,
      maxTokens: sp.max_tokens,
      temperature: sp.temperature,
      topP: sp.top_p,
      stopTokens,
      stopStrings: stop.filter((s): s is string => typeof s === 'string'),
      seed: sp.seed ?? null,
      promptLogprobs: body.prompt_logprobs === true,
      topkPromptLogprobs: body.topk_prompt_logprobs,
    };
    return { request_id: this.futures.track(this.call('sample', args)) };
  }

  /** retrieve_future: the result, try_again, or the failure as {error, category}. */
  async retrieve(body: Body<typeof S.RetrieveFuture>): Promise<Record<string, unknown>> {
    const state = await this.futures.wait(body.request_id, this.opts.pollMs ?? 3000);
    if (state.status === 'pending') return { type: 'try_again', request_id: body.request_id, queue_state: 'active' };
    if (state.status === 'failed') {
      const message = state.error instanceof Error ? state.error.message : String(state.error);
      return { error: message, category: category(state.error) };
    }
    return state.value as Record<string, unknown>;
  }
}
