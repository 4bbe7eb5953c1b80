// The Tinker API as a PolicyEngine (docs/design.md §3): generate = asample on the current sampler
// path; score = prompt log-probs; trainStep = forward_backward (loss `ppo`, reduction folded into
// the advantages) + optim_step per minibatch; publish = save_weights_for_sampler (the new path is
// the new version, swapped in atomically — serving never pauses); save = save_weights, recorded
// with the sampler path of the same step in the trainer's checkpoint folder (tinker.json, state.ts).
// A resume creates a NEW training model whose first request loads that state (seq_ids of the old
// one are never replayed) and serves that step's sampler from the start. The training model is
// created on the first step, so serving needs no training slot.
import { OpenClawError } from '../../errors/index.ts';
import { Limiter } from '../../http/index.ts';
import { ppoBatchLoss } from '../../rl/index.ts';
import type {
  GenerateRequest,
  GenerateResult,
  PolicyEngine,
  ScoreRequest,
  ScoreResult,
  TrainOptions,
  TrainSample,
  TrainStepMetrics,
} from '../types.ts';
import type { TinkerClient } from './client.ts';
import {
  MAX_BYTES_PER_CALL,
  MAX_DATUMS_PER_CALL,
  forwardBackwardBody,
  planForwardBackward,
  scoreForwardBody,
  type DatumLayout,
} from './datums.ts';
import { unhonouredSettings } from './profiles.ts';
import { responseLogprobs } from './logprobs.ts';
import { readTinkerCheckpoint, writeTinkerCheckpoint, type TinkerCheckpoint } from './state.ts';

/** Settings of a TinkerEngine. */
export interface TinkerEngineOptions {
  client: TinkerClient;
  baseModel: string;
  loraRank?: number;
  /** The run's output folder. */
  stateDir: string;
  /** The checkpoint to continue from (trainer/resume.ts), served as `version`. */
  resume?: { checkpoint: TinkerCheckpoint; version: number };
  /** Version to serve the base model as when there is no checkpoint (versions never go backwards). */
  startVersion?: number;
  /** tinker://…/weights/… to start from when there is no checkpoint. */
  resumeFrom?: string;
  /** Progress notes (model created, resumed, …). */
  onInfo?: (message: string) => void;
}

/** The served policy: which sampler weights, and their version. Replaced as one object. */
interface Served {
  path: string | undefined;
  version: number;
}

/** Sampler weights saved from the training model (for the gate) but not served yet. */
interface Staged {
  /** The trained state they were saved from (`TinkerEngine.trained`). */
  state: number;
  path: Promise<string>;
}

function splitEvenly<T>(items: readonly T[], parts: number): T[][] {
  const n = Math.max(1, Math.min(parts, items.length));
  return Array.from({ length: n }, (_, i) => items.slice(Math.floor((i * items.length) / n), Math.floor(((i + 1) * items.length) / n)));
}

/** Refuses train options Tinker's ppo loss cannot honour (the config check names the keys too). */
export function checkTinkerTrainOptions(opts: TrainOptions): void {
  const bad = (key: string, why: string) => new OpenClawError('config', `${key} ${why} with rollout.provider tinker`, { param: key });
  if (opts.loss.klCoef > 0) throw bad('training.kl_coef', "must be 0: Tinker's ppo loss has no KL term");
  if (opts.loss.entropyCoef > 0) throw bad('training.entropy_coef', "must be 0: Tinker's ppo loss has no entropy term");
  if (opts.loss.distillTopKCoef > 0) throw bad('scoring.distill_topk', "must be 0: Tinker's ppo loss has no top-K distillation term");
  if (opts.temperature !== 1)
    throw bad('rollout.temperature', `must be 1 (got ${opts.temperature}): Tinker's learner computes log-probs at temperature 1`);
  if (!(opts.lr > 0) || !Number.isFinite(opts.lr)) throw bad('training.lr', `must be a finite number > 0 (got ${opts.lr})`);
}

/** A policy trained and sampled through the Tinker API. */
export class TinkerEngine implements PolicyEngine {
  readonly kind = 'tinker';
  readonly client: TinkerClient;
  private readonly opts: TinkerEngineOptions;
  private served: Served;
  /** Training state to load into the training model when it is created. */
  private loadFrom: string | undefined;
  /** The last full training state saved (or loaded): what a checkpoint records. */
  private weightsPath: string | undefined;
  private modelId: string | undefined;
  private creating: Promise<string> | undefined;
  /** Counts trainSteps: the trained state's identity for staged sampler paths. */
  private trained = 0;
  /** Whether the training model moved since the served weights were published, resumed or restored. */
  private trainedSinceServed = false;
  private staged: Staged | undefined;

  constructor(opts: TinkerEngineOptions) {
    this.opts = opts;
    this.client = opts.client;
    const ck = opts.resume?.checkpoint;
    if (ck !== undefined && ck.base_model !== opts.baseModel) {
      throw new OpenClawError(
        'config',
        `the checkpoint to resume was trained from ${ck.base_model}, but tinker.base_model is ${opts.baseModel}; use another output_dir or start over with --fresh`,
        { param: 'tinker.base_model' },
      );
    }
    this.loadFrom = ck?.weights_path ?? opts.resumeFrom;
    this.weightsPath = this.loadFrom;
    this.served = { path: ck?.sampler_path ?? undefined, version: opts.resume?.version ?? opts.startVersion ?? 0 };
  }

  version(): number {
    return this.served.version;
  }

  /** The sampler path serving now (undefined: the base model). */
  samplerPath(): string | undefined {
    return this.served.path;
  }

  /** The training model id, once created. */
  trainingModelId(): string | undefined {
    return this.modelId;
  }

  /** Samples one answer on the current sampler weights; the whole sequence arrives at once. */
  async generate(req: GenerateRequest, onToken?: (id: number, logprob: number) => void): Promise<GenerateResult> {
    return this.generateOn(this.served, req, onToken); // one read: tokens and version always belong together
  }

  /** Samples on sampler weights `served.path` (undefined: the base model). */
  private async generateOn(served: Served, req: GenerateRequest, onToken?: (id: number, logprob: number) => void): Promise<GenerateResult> {
    const r = await this.client.sample({
      promptIds: req.promptIds,
      maxTokens: req.maxTokens,
      temperature: req.temperature,
      topP: req.topP,
      stop: req.stopTokenIds && req.stopTokenIds.length > 0 ? req.stopTokenIds : undefined,
      seed: req.seed,
      ...(served.path !== undefined ? { modelPath: served.path } : { baseModel: this.opts.baseModel }),
      signal: req.signal,
    });
    const seq = r.sequences[0];
    if (seq === undefined) throw new OpenClawError('upstream', 'Tinker asample returned no sequence', { code: 'tinker_bad_answer' });
    const logprobs = seq.logprobs ?? [];
    if (logprobs.length !== seq.tokens.length) {
      throw new OpenClawError(
        'upstream',
        `Tinker asample returned ${logprobs.length} log-probs for ${seq.tokens.length} tokens; training needs one per token`,
        { code: 'tinker_bad_answer' },
      );
    }
    let tokenIds = seq.tokens;
    let lps = logprobs;
    const last = tokenIds[tokenIds.length - 1];
    const endedOnStop = last !== undefined && (req.stopTokenIds ?? []).includes(last);
    if (endedOnStop && req.includeStopToken === false) {
      tokenIds = tokenIds.slice(0, -1);
      lps = lps.slice(0, -1);
    }
    const finishReason: GenerateResult['finishReason'] =
      seq.stop_reason === 'length' || (!endedOnStop && seq.stop_reason !== 'stop' && seq.tokens.length >= req.maxTokens)
        ? 'length'
        : 'stop';
    if (onToken) tokenIds.forEach((id, i) => onToken(id, lps[i]));
    return { tokenIds, logprobs: lps, finishReason, version: served.version };
  }

  /** Log-probs of the response tokens after the prompt on the current weights (temperature 1). */
  async score(req: ScoreRequest): Promise<ScoreResult> {
    const served = this.served;
    return this.scoreOn(served.path, served.version, req);
  }

  /**
   * Log-probs under the trained, unpublished weights (the regression gate). Where saved sampler
   * weights are independent of the training model (hosted), the trained state is saved as sampler
   * weights once per trained state (staged; `publish` serves that same path) and scored there. On
   * SkyRL, sampling a staged path would load it into the training model's own adapter slot
   * (docs/tinker.md), so the training model scores the answer itself with `forward` (no gradient;
   * SkyRL api.py `/api/v1/forward`, deduped by seq_id like forward_backward). Nothing trained since
   * the served weights: the served path.
   */
  async scoreTrained(req: ScoreRequest): Promise<ScoreResult> {
    if (!this.trainedSinceServed) return this.score(req);
    const { profile } = await this.client.server();
    if (!profile.samplerNeedsModel) return this.scoreOn(await this.stage(), this.served.version, req);
    this.warnGateAfterServing(profile.name, profile.servesTrainingWeights);
    return { logprobs: (await this.scoreForward([req]))[0], version: this.served.version };
  }

  /**
   * `scoreTrained` of many answers (the gate's held-out and batch checks): on SkyRL one `forward`
   * with a datum per answer; on sampler paths (hosted, or nothing trained since serving) the
   * answers are asked for SCORE_CONCURRENCY at a time rather than one after another.
   */
  async scoreTrainedMany(reqs: ScoreRequest[]): Promise<number[][]> {
    if (reqs.length === 0) return [];
    if (this.trainedSinceServed) {
      const { profile } = await this.client.server();
      if (profile.samplerNeedsModel) {
        this.warnGateAfterServing(profile.name, profile.servesTrainingWeights);
        const out: number[][] = [];
        for (const part of forwardChunks(reqs)) out.push(...(await this.scoreForward(part)));
        return out;
      }
    }
    const limiter = new Limiter(SCORE_CONCURRENCY, 'tinker score concurrency');
    return Promise.all(reqs.map((r) => limiter.run(async () => (await this.scoreTrained(r)).logprobs)));
  }

  private warnGateAfterServing(name: string, servesTrainingWeights: boolean): void {
    if (!servesTrainingWeights) return;
    this.client.warnOnce(
      'gate-serves-training-weights',
      `tinker (${name}): trained weights answer from their optim_step on (the sampler reads the training adapter, docs/tinker.md), so the regression gate finds a regression after it served; evaluation.gate.on_fail rollback restores the serving version, hold keeps the refused weights answering`,
    );
  }

  /** Each answer's response log-probs from the training model's `forward` (temperature 1, no top-K), one datum per answer. */
  private async scoreForward(reqs: readonly ScoreRequest[]): Promise<number[][]> {
    for (const req of reqs) {
      requireTemperatureOne(req);
      if (req.topK !== undefined) {
        throw new OpenClawError('internal', 'Tinker forward returns no top-K log-probs: score unpublished weights without topK');
      }
    }
    const modelId = await this.ensureModel();
    const rows = await this.client.forward(modelId, (seqId) => scoreForwardBody(modelId, seqId, reqs));
    const bad = (d: string) => new OpenClawError('upstream', `Tinker forward ${d}`, { code: 'tinker_bad_answer' });
    if (rows.length !== reqs.length) throw bad(`returned ${rows.length} outputs for ${reqs.length} datums`);
    return reqs.map((req, i) => {
      const P = req.promptIds.length;
      const R = req.responseIds.length;
      if (rows[i].length < P - 1 + R) throw bad(`returned ${rows[i].length} log-probs for ${P + R - 1} positions (datum ${i})`);
      const logprobs = rows[i].slice(P - 1, P - 1 + R);
      const at = logprobs.findIndex((v) => !Number.isFinite(v));
      if (at !== -1) throw bad(`returned ${logprobs[at]} as the log-prob of response token ${at} (datum ${i})`);
      return logprobs;
    });
  }

  /**
   * Whether `generateTrained` can sample unpublished weights: only where a saved sampler path is
   * independent of the training model (hosted). On SkyRL sampling a staged path would load it into
   * the training model's own adapter slot (docs/tinker.md); the replay evaluation then runs on the
   * published version instead.
   */
  async canGenerateTrained(): Promise<boolean> {
    const { profile } = await this.client.server();
    return !profile.samplerNeedsModel;
  }

  /**
   * Samples with the trained, unpublished weights (the replay evaluation) on the same staged
   * sampler path `scoreTrained` uses on hosted Tinker; nothing trained since the served weights: `generate`.
   */
  async generateTrained(req: GenerateRequest): Promise<GenerateResult> {
    if (!this.trainedSinceServed) return this.generate(req);
    if (!(await this.canGenerateTrained())) {
      throw new OpenClawError(
        'internal',
        `Tinker (${(await this.client.server()).profile.name}) cannot sample unpublished weights: its sampler paths load into the training model`,
      );
    }
    return this.generateOn({ path: await this.stage(), version: this.served.version }, req);
  }

  /** The staged sampler path of the current trained state, saved on first use. */
  private stage(): Promise<string> {
    const state = this.trained;
    if (this.staged?.state !== state) {
      const path = (async () => {
        const modelId = await this.ensureModel();
        const name = `v${String(this.served.version + 1).padStart(6, '0')}-staged-${Date.now().toString(36)}`;
        return this.client.saveWeightsForSampler(modelId, name);
      })();
      const staged: Staged = { state, path };
      this.staged = staged;
      // A failed save is forgotten, so the next call (or publish) saves again.
      path.catch(() => {
        if (this.staged === staged) this.staged = undefined;
      });
    }
    return this.staged!.path;
  }

  /** Prompt log-probs of prompt+response on sampler `path` (undefined: the base model). */
  private async scoreOn(path: string | undefined, version: number, req: ScoreRequest): Promise<ScoreResult> {
    requireTemperatureOne(req);
    const r = await this.client.sample({
      promptIds: [...req.promptIds, ...req.responseIds],
      maxTokens: 1,
      temperature: 1,
      promptLogprobs: true,
      topkPromptLogprobs: req.topK ?? 0,
      ...(path !== undefined ? { modelPath: path } : { baseModel: this.opts.baseModel }),
    });
    const out = responseLogprobs(
      r,
      req.promptIds.length,
      req.responseIds.length,
      req.topK,
      (d) => new OpenClawError('upstream', `Tinker scoring ${d}`, { code: 'tinker_bad_answer' }),
    );
    return { ...out, version };
  }

  /** Creates the training model (or a new one loaded from the saved state) once. */
  private ensureModel(): Promise<string> {
    if (this.modelId !== undefined) return Promise.resolve(this.modelId);
    this.creating ??= (async () => {
      const from = this.loadFrom;
      const id = await this.client.createModel(this.opts.baseModel, this.opts.loraRank ?? 32);
      // load_weights must be the model's first request
      if (from !== undefined) {
        await this.client.loadWeights(id, from, true);
        this.opts.onInfo?.(`tinker: training model ${id} resumed from ${from}`);
      } else this.opts.onInfo?.(`tinker: training model ${id} created on ${this.opts.baseModel}`);
      this.modelId = id;
      return id;
    })().finally(() => {
      this.creating = undefined;
    });
    return this.creating;
  }

  /** epochs × minibatches of forward_backward (chunked) + optim_step. */
  async trainStep(samples: TrainSample[], opts: TrainOptions): Promise<TrainStepMetrics> {
    checkTinkerTrainOptions(opts);
    const active = samples.filter((s) => s.lossMask.some((m) => m > 0));
    const zero: TrainStepMetrics = {
      pg_loss: 0,
      pg_clipfrac: 0,
      ppo_kl: 0,
      entropy: 0,
      kl_loss: 0,
      grad_norm: 0,
      train_rollout_logprob_abs_diff: 0,
      tokens: 0,
      updates: 0,
      requests: 0,
    };
    if (active.length === 0) return zero;
    const { profile } = await this.client.server();
    for (const u of unhonouredSettings(profile, opts)) {
      this.client.warnOnce(`unhonoured:${u.key}`, `tinker: ${u.key} ${u.why}`);
    }
    const modelId = await this.ensureModel();
    // From here the training model may move: a staged sampler path no longer matches it.
    this.trained++;
    this.staged = undefined;
    this.trainedSinceServed = true;
    const parts = splitEvenly(active, opts.minibatches).map((part) => ({
      part,
      plan: planForwardBackward(part, { loss: opts.loss, reduction: profile.reduction }),
    }));
    const pick = (m: Record<string, number>, keys: readonly string[]) => keys.map((k) => m[k]).find((v) => Number.isFinite(v));
    const sums = { pg_loss: 0, pg_clipfrac: 0, ppo_kl: 0, grad_norm: 0 };
    let requests = 0;
    let updates = 0;
    // Learner log-probs of each minibatch's first pass (before its own update), for the drift metric.
    const first: Array<Array<{ sample: TrainSample; learner: number[]; layout: DatumLayout }>> = [];
    for (let epoch = 0; epoch < opts.epochs; epoch++) {
      for (const [mb, { part, plan }] of parts.entries()) {
        let lossSum = 0;
        const seen: Array<{ sample: TrainSample; learner: number[]; layout: DatumLayout }> = [];
        for (const chunk of plan.chunks) {
          const r = await this.client.forwardBackward(modelId, (seqId) =>
            forwardBackwardBody(modelId, seqId, plan.lossFnConfig, chunk.datums),
          );
          requests++;
          if (r.logprobs.length !== chunk.layouts.length) {
            throw new OpenClawError(
              'upstream',
              `Tinker forward_backward returned ${r.logprobs.length} outputs for ${chunk.layouts.length} datums`,
              { code: 'tinker_bad_answer' },
            );
          }
          lossSum += pick(r.metrics, profile.metrics.loss) ?? NaN;
          chunk.layouts.forEach((layout, i) => {
            const lp = r.logprobs[i];
            seen.push({ sample: part[layout.sample], learner: lp.slice(layout.start, layout.start + layout.responseLength), layout });
          });
        }
        const om = await this.client.optimStep(modelId, {
          learning_rate: opts.lr,
          weight_decay: opts.weightDecay,
          grad_clip_norm: opts.maxGradNorm,
        });
        requests++;
        updates++;
        const check = ppoBatchLoss(
          seen.map(({ sample, learner }) => ({
            newLogprobs: learner,
            oldLogprobs: sample.rolloutLogprobs,
            advantages: sample.advantages,
            lossMask: sample.lossMask,
          })),
          { clipRatio: opts.loss.clipRatio, clipRatioHigh: opts.loss.clipRatioHigh },
        );
        // pg_loss is the learner's own sum where it is our reduction (profile `sum`); else, or when
        // the server does not report it (SkyRL-JAX: metrics {}), ours from the learner's log-probs.
        sums.pg_loss += profile.reduction === 'sum' && Number.isFinite(lossSum) ? lossSum : check.pg_loss;
        sums.pg_clipfrac += check.pg_clipfrac;
        sums.ppo_kl += check.ppo_kl;
        sums.grad_norm += pick(om, profile.metrics.gradNorm) ?? 0;
        if (epoch === 0) first[mb] = seen;
      }
    }
    let diff = 0;
    let count = 0;
    for (const { sample, learner, layout } of first.flat()) {
      for (const t of layout.masked) {
        diff += Math.abs(learner[t] - sample.rolloutLogprobs[t]);
        count++;
      }
    }
    return {
      ...zero,
      pg_loss: sums.pg_loss / updates,
      pg_clipfrac: sums.pg_clipfrac / updates,
      ppo_kl: sums.ppo_kl / updates,
      grad_norm: sums.grad_norm / updates,
      train_rollout_logprob_abs_diff: count === 0 ? 0 : diff / count,
      tokens: parts.reduce((n, p) => n + p.plan.tokens, 0),
      updates,
      requests,
    };
  }

  /**
   * Saves sampler weights and serves them from now on; returns the new version. Weights the gate
   * staged for this trained state are served as they are (no second save).
   */
  async publish(): Promise<number> {
    const version = this.served.version + 1;
    const staged = this.staged?.state === this.trained ? await this.staged.path.catch(() => undefined) : undefined;
    const path =
      staged ??
      (await this.client.saveWeightsForSampler(
        await this.ensureModel(),
        `v${String(version).padStart(6, '0')}-${Date.now().toString(36)}`,
      ));
    this.served = { path, version };
    this.staged = undefined;
    this.trainedSinceServed = false;
    return version;
  }

  /**
   * Checkpoint: saves the full training state on the server and records it in `dir/tinker.json`
   * with the sampler path served now (published by the same step). Nothing trained in this
   * process: the state it started from is recorded again, so the folder is still a checkpoint.
   */
  async save(dir: string): Promise<void> {
    const name = `${(
      dir
        .split(/[\\/]/)
        .filter((p) => p !== '')
        .pop() ?? 'state'
    )
      .replace(/\.partial$/, '')
      .replace(/[^A-Za-z0-9_-]/g, '-')}-${Date.now().toString(36)}`;
    const served = this.served;
    if (this.modelId !== undefined) this.weightsPath = await this.client.saveWeights(this.modelId, name);
    if (this.weightsPath === undefined) return; // base model, never trained: nothing to record
    const checkpoint: TinkerCheckpoint = {
      base_model: this.opts.baseModel,
      model_id: this.modelId ?? 'none',
      weights_path: this.weightsPath,
      sampler_path: served.path ?? null,
      version: served.version,
    };
    writeTinkerCheckpoint(dir, checkpoint);
    this.opts.onInfo?.(`tinker: training state saved at ${this.weightsPath}`);
  }

  /**
   * Rollback: the current training model is unloaded and the checkpoint's state goes into a new
   * one (seq_ids of the old one are never reused); served as `version` at once — the checkpoint's
   * sampler path, or on servers that sample only from loaded models a sampler published from the
   * new model. A checkpoint without tinker.json was saved before anything was trained: it is the
   * base model, which a new training model starts from and the sampler serves directly.
   */
  async restore(dir: string, version: number): Promise<void> {
    const ck = readTinkerCheckpoint(dir);
    if (ck !== undefined && ck.base_model !== this.opts.baseModel) {
      throw new OpenClawError('config', `${dir} was trained from ${ck.base_model}, not ${this.opts.baseModel}`, {
        param: 'tinker.base_model',
      });
    }
    await this.creating?.catch(() => undefined);
    // A staged (refused or never published) sampler path is never served.
    this.staged = undefined;
    this.trained++;
    this.trainedSinceServed = false;
    const previous = this.modelId;
    this.loadFrom = ck?.weights_path;
    this.weightsPath = ck?.weights_path;
    this.modelId = undefined;
    // The abandoned training model would hold its LoRA slot until our session ends.
    if (previous !== undefined) await this.client.unloadModel(previous, 30_000);
    if (ck === undefined) {
      this.served = { path: undefined, version };
      return;
    }
    const { profile } = await this.client.server();
    if (!profile.samplerNeedsModel) {
      this.served = { path: ck.sampler_path ?? undefined, version };
      return;
    }
    // SkyRL samples only from loaded models: load the state into a new one and publish from it.
    const modelId = await this.ensureModel();
    const path = await this.client.saveWeightsForSampler(
      modelId,
      `v${String(version).padStart(6, '0')}-rollback-${Date.now().toString(36)}`,
    );
    this.served = { path, version };
  }

  /**
   * The Tinker server as the last real call found it (/healthz); with no call in the last 15 s
   * (no session heartbeat yet), a fresh `healthz`. Never throws.
   */
  async health(): Promise<{ ok: boolean; detail: string }> {
    const where = `tinker ${this.client.knownProfile()?.name ?? 'server'} at ${this.client.baseUrl}`;
    let last = this.client.lastCall();
    if (last === undefined || Date.now() - last.at > 15_000) {
      await this.client.healthz(5000).catch(() => undefined);
      last = this.client.lastCall();
    }
    if (last === undefined) return { ok: false, detail: `${where}: no answer yet` };
    const ago = Math.round((Date.now() - last.at) / 1000);
    return {
      ok: last.ok,
      detail: `${where}, policy version ${this.served.version}: ${last.ok ? 'last call ok' : 'last call failed'} ${ago} s ago (${last.detail})`,
    };
  }

  /**
   * Start-up check of `train` / `api-server`: the server answers healthz, offers the base model,
   * and its profile is known (detected or configured). Throws an upstream error naming the cause.
   */
  async checkServer(): Promise<string> {
    await this.client.healthz(30_000);
    const models = await this.client.capabilities();
    if (!models.includes(this.opts.baseModel)) {
      throw new OpenClawError(
        'upstream',
        `Tinker at ${this.client.baseUrl} does not offer tinker.base_model ${this.opts.baseModel} (get_server_capabilities: ${models.slice(0, 8).join(', ') || 'none'}); set tinker.base_model to one of them`,
        { code: 'tinker_unknown_model' },
      );
    }
    const { profile, reason } = await this.client.server();
    return `${profile.name} (${reason}), ${this.opts.baseModel} offered`;
  }

  /**
   * Start-up of a resumed run, once the server's profile is known. The previous process's training
   * model is unloaded where it may still hold a LoRA slot (a crash never unloaded it). On a server
   * whose sampler paths die with their model (SkyRL), the checkpoint's sampler path cannot be
   * served: the saved state is loaded into the new training model now and published as a sampler
   * of its own, served under the same version (the same weights). Returns what it did, or undefined.
   */
  async prepareResume(): Promise<string | undefined> {
    const ck = this.opts.resume?.checkpoint;
    if (ck === undefined) return undefined;
    const { profile } = await this.client.server();
    const notes: string[] = [];
    if (profile.samplerNeedsModel) {
      if (ck.model_id !== 'none' && (await this.client.unloadModel(ck.model_id, 30_000)))
        notes.push(`previous training model ${ck.model_id} unloaded`);
      const modelId = await this.ensureModel();
      const path = await this.client.saveWeightsForSampler(
        modelId,
        `v${String(this.served.version).padStart(6, '0')}-resumed-${Date.now().toString(36)}`,
      );
      this.served = { path, version: this.served.version };
      notes.push(`sampler ${path} published from the loaded state (${profile.name} samples only from loaded models)`);
    }
    return notes.length > 0 ? notes.join('; ') : undefined;
  }

  /** Frees the training model (its LoRA slot) on the server, then closes the client. */
  async close(): Promise<void> {
    const id = this.modelId;
    if (id !== undefined) {
      if (await this.client.unloadModel(id, 30_000)) this.opts.onInfo?.(`tinker: training model ${id} unloaded`);
    }
    await this.client.close();
  }
}

/** Tinker's log-probs (prompt log-probs and forward alike) are at temperature 1. */
function requireTemperatureOne(req: ScoreRequest): void {
  if (req.temperature !== 1) {
    throw new OpenClawError('config', `Tinker prompt log-probs are at temperature 1; scoring at ${req.temperature} is not possible`, {
      param: 'rollout.temperature',
    });
  }
}

/** Sampler-path scores asked for at once by `scoreTrainedMany` (hosted Tinker: one request per answer). */
const SCORE_CONCURRENCY = 8;
/** JSON bytes a scored token costs in a `forward` body, at most: its id in two arrays and its weight. */
const FORWARD_BYTES_PER_TOKEN = 24;

/** Answers split into `forward` calls within the per-call datum and byte limits the training calls keep. */
function forwardChunks(reqs: readonly ScoreRequest[]): ScoreRequest[][] {
  const chunks: ScoreRequest[][] = [];
  let current: ScoreRequest[] = [];
  let bytes = 0;
  for (const r of reqs) {
    const size = (r.promptIds.length + r.responseIds.length) * FORWARD_BYTES_PER_TOKEN;
    if (current.length > 0 && (current.length >= MAX_DATUMS_PER_CALL || bytes + size > MAX_BYTES_PER_CALL)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(r);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
