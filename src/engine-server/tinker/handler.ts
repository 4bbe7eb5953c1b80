// The Tinker worker thread's state and operations (worker.ts runs it; service.ts calls it):
// the frozen base model (from the embedded checkpoint), the training models (each a full copy of
// the base with its own AdamW state and gradient accumulator: the embedded model has no LoRA),
// and sampler snapshots by tinker:// path. Every operation runs here, off the server's event
// loop; the thread runs one at a time, and sampling yields between tokens.
// Saved weights go to the state dir (paths.ts) as embedded checkpoints (safetensors), so a
// restarted server can load_weights and sample old sampler paths.

import { existsSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { OpenClawError, invalidRequest } from '../../errors/index.ts';
import { initBackend } from '../../engines/embedded/index.ts';
import { fromHost, readCheckpoint, toHost, writeCheckpoint } from '../../engines/embedded/index.ts';
import { Gpt, type GptConfig } from '../../engines/embedded/index.ts';
import { AdamW } from '../../engines/embedded/index.ts';
import { generateTokens, scoreTokens, type GeneratedTokens } from '../../engines/embedded/index.ts';
import { ServedSnapshot } from '../../engines/embedded/index.ts';
import { Tokenizer } from '../../engines/embedded/index.ts';
import type { HandlerContext, HandlerReply, ThreadHandler } from '../../threads/host.ts';
import {
  disposeTrainingModel,
  forwardBackward,
  forwardOnly,
  optimStep,
  type AdamStep,
  type LearnerDatum,
  type LearnerOutput,
  type LearnerLossConfig,
  type LossFn,
  type OptimMode,
  type TrainingModel,
} from './learner.ts';
import { formatPath, pathDir, type TinkerPath } from './paths.ts';
import { PROFILES, SKYRL_TRAIN_OPTIMIZER, type TinkerProfile, type TinkerProfileName } from './profiles.ts';
import { cutScripted, matchScript, type ScriptRule } from './script.ts';
import { checkCodecFits, embeddedCodec, hfCodec, type TextCodec } from './vocab.ts';

/** Arguments of each worker operation. */
export interface WorkerOps {
  init: {
    checkpoint: string;
    stateDir: string;
    profile?: TinkerProfileName;
    /** A Hugging Face tokenizer folder to read text with instead of the checkpoint's tokenizer. */
    tokenizer?: string;
    /** Scripted answers (script.ts). */
    script?: ScriptRule[];
  };
  create_model: { modelId: string; seed: number | null };
  unload_model: { modelId: string };
  forward: { modelId: string; lossFn: LossFn; config: LearnerLossConfig; datums: LearnerDatum[] };
  forward_backward: { modelId: string; lossFn: LossFn; config: LearnerLossConfig; datums: LearnerDatum[] };
  optim_step: { modelId: string; adam: AdamStep; mode: OptimMode };
  save_weights: { modelId: string; name: string };
  save_weights_for_sampler: { modelId: string; name: string };
  load_weights: { modelId: string; path: TinkerPath; optimizer: boolean };
  sample: SampleArgs;
  close: null;
}

/** What `init` reports. */
export interface WorkerInfo {
  config: GptConfig;
  hasTokenizer: boolean;
  /** Where the served text comes from (vocab.ts), or null without a tokenizer. */
  tokenizer: string | null;
}

/** One asample request, checked. */
export interface SampleArgs {
  /** null: the base model. */
  path: TinkerPath | null;
  prompt: number[];
  numSamples: number;
  maxTokens: number;
  temperature: number;
  topP: number;
  stopTokens: number[];
  stopStrings: string[];
  seed: number | null;
  promptLogprobs: boolean;
  topkPromptLogprobs: number;
}

/**
 * Sampler snapshots kept in memory, most recently used first; older ones are reloaded from the
 * state dir when asked for (a long run saves one per step).
 */
const SAMPLERS_IN_MEMORY = 8;

/** Thrown inside a generation to end it at a stop string. */
const STOP_STRING = new Error('stop string reached');

/** The Tinker worker's handler. */
export class TinkerHandler implements ThreadHandler {
  private base: Gpt | null = null;
  private tokenizer: TextCodec | null = null;
  private script: ScriptRule[] = [];
  private stateDir = '';
  private readonly models = new Map<string, TrainingModel>();
  private readonly samplers = new Map<string, ServedSnapshot>();
  private profile: TinkerProfile = PROFILES.hosted;
  /** The learning rate each model last stepped with (SkyRL-Train reports it as policy_lr:last). */
  private readonly lastLr = new Map<string, number>();

  async handle(op: string, args: unknown, ctx: HandlerContext): Promise<HandlerReply> {
    return { result: await this.dispatch(op as keyof WorkerOps, args, ctx) };
  }

  private async dispatch(op: keyof WorkerOps, args: unknown, ctx: HandlerContext): Promise<unknown> {
    switch (op) {
      case 'init':
        return this.init(args as WorkerOps['init']);
      case 'create_model':
        return this.createModel(args as WorkerOps['create_model']);
      case 'unload_model': {
        const { modelId } = args as WorkerOps['unload_model'];
        const m = this.models.get(modelId);
        if (m !== undefined) disposeTrainingModel(m);
        this.models.delete(modelId);
        this.lastLr.delete(modelId);
        return { model_id: modelId };
      }
      case 'forward': {
        const a = args as WorkerOps['forward'];
        return this.fbResult(forwardOnly(this.model(a.modelId).policy, a.datums, a.lossFn, a.config), a, false);
      }
      case 'forward_backward': {
        const a = args as WorkerOps['forward_backward'];
        return this.fbResult(forwardBackward(this.model(a.modelId), a.datums, a.lossFn, a.config), a, true);
      }
      case 'optim_step': {
        const a = args as WorkerOps['optim_step'];
        const r = optimStep(this.model(a.modelId), a.adam, a.mode);
        this.lastLr.set(a.modelId, a.adam.learningRate);
        if (this.profile.optimMetrics === 'skyrl')
          // jax.py L141-148, skyrl_train_backend.py L1038-1041: no other metrics.
          return { metrics: { 'skyrl.ai/grad_norm': r.gradNorm, 'skyrl.ai/learning_rate': a.adam.learningRate } };
        return {
          metrics: {
            skipped: r.skipped ? 1 : 0,
            grad_norm: r.gradNorm,
            optimizer_step: r.optimizerStep,
            accumulated_calls: r.accumulatedCalls,
          },
        };
      }
      case 'save_weights':
        return this.saveWeights(args as WorkerOps['save_weights']);
      case 'save_weights_for_sampler':
        return this.saveForSampler(args as WorkerOps['save_weights_for_sampler']);
      case 'load_weights':
        return this.loadWeights(args as WorkerOps['load_weights']);
      case 'sample':
        return this.sample(args as SampleArgs, ctx.signal);
      case 'close':
        this.close();
        return null;
      default:
        throw new OpenClawError('internal', `tinker worker: unknown operation ${String(op)}`);
    }
  }

  private async init(a: WorkerOps['init']): Promise<WorkerInfo> {
    await initBackend();
    const data = await readCheckpoint(a.checkpoint);
    this.base = new Gpt(data.config.model, fromHost(data.weights));
    // A real tokenizer (e.g. Qwen3's) wins over the checkpoint's byte-level one; its ids must fit.
    if (a.tokenizer !== undefined) {
      this.tokenizer = await hfCodec(a.tokenizer);
      checkCodecFits(this.tokenizer, this.base.config.vocabSize, a.checkpoint);
    } else if (data.tokenizer !== null) this.tokenizer = embeddedCodec(Tokenizer.fromJSON(data.tokenizer), a.checkpoint);
    this.script = a.script ?? [];
    if (this.script.length > 0 && this.tokenizer === null)
      throw new OpenClawError(
        'config',
        `scripted answers need a tokenizer to read prompts with, and checkpoint ${a.checkpoint} has none: pass one`,
        {
          param: 'tokenizer',
        },
      );
    this.stateDir = a.stateDir;
    this.profile = PROFILES[a.profile ?? 'hosted'];
    return { config: this.base.config, hasTokenizer: this.tokenizer !== null, tokenizer: this.tokenizer?.source ?? null };
  }

  private baseModel(): Gpt {
    if (this.base === null) throw new OpenClawError('internal', 'tinker worker has no base model yet (init did not run)');
    return this.base;
  }

  private model(id: string): TrainingModel {
    const m = this.models.get(id);
    if (m === undefined)
      throw new OpenClawError(
        'not_found',
        `model ${id} does not exist on this server (it may have been created before a restart: create a new model and load_weights)`,
      );
    return m;
  }

  private createModel(a: WorkerOps['create_model']): { model_id: string } {
    // A full trainable copy of the base: the embedded model has no LoRA adapters.
    this.models.set(a.modelId, { policy: this.baseModel().clone(true), optimizer: new AdamW(), grads: null, accumulated: 0, datums: 0 });
    return { model_id: a.modelId };
  }

  private async saveWeights(a: WorkerOps['save_weights']): Promise<{ path: string }> {
    const m = this.model(a.modelId);
    const path: TinkerPath = { modelId: a.modelId, kind: 'weights', name: a.name };
    await writeCheckpoint(pathDir(this.stateDir, path), {
      config: { format: 'openclaw-embedded', model: m.policy.config, version: m.optimizer.step, adamw: m.optimizer.config },
      tokenizer: null,
      weights: toHost(m.policy.params),
      optimizer: { step: m.optimizer.step, m: toHost(m.optimizer.m), v: toHost(m.optimizer.v) },
      reference: null,
    });
    return { path: formatPath(path) };
  }

  private async saveForSampler(a: WorkerOps['save_weights_for_sampler']): Promise<{ path: string }> {
    const m = this.model(a.modelId);
    const path: TinkerPath = { modelId: a.modelId, kind: 'sampler_weights', name: a.name };
    const key = formatPath(path);
    // The snapshot of this moment: later optim_steps move the policy, never this copy.
    const snapshot = m.policy.clone(false);
    this.keepSampler(key, snapshot);
    await writeCheckpoint(pathDir(this.stateDir, path), {
      config: { format: 'openclaw-embedded', model: snapshot.config, version: m.optimizer.step, adamw: m.optimizer.config },
      tokenizer: null,
      weights: toHost(snapshot.params),
      optimizer: null,
      reference: null,
    });
    return { path: key };
  }

  private async loadWeights(a: WorkerOps['load_weights']): Promise<{ path: string }> {
    const m = this.model(a.modelId);
    const dir = pathDir(this.stateDir, a.path);
    if (!existsSync(dir))
      throw new OpenClawError('not_found', `no saved weights at ${formatPath(a.path)} (looked in ${dir})`, { param: 'path' });
    const data = await readCheckpoint(dir);
    checkSameShape(data.config.model, m.policy.config, formatPath(a.path));
    const params = fromHost(data.weights);
    try {
      for (const [name, p] of Object.entries(m.policy.params)) {
        const src = params[name];
        if (src === undefined) throw new OpenClawError('data', `${formatPath(a.path)} lacks weight ${name}`);
        (p as tf.Variable).assign(src);
      }
    } finally {
      tf.dispose(Object.values(params));
    }
    if (m.grads !== null) tf.dispose(Object.values(m.grads));
    m.grads = null;
    m.accumulated = 0;
    if (a.optimizer && data.optimizer !== null)
      m.optimizer.restore(data.optimizer.step, fromHost(data.optimizer.m), fromHost(data.optimizer.v));
    else m.optimizer.restore(0, {}, {});
    return { path: formatPath(a.path) };
  }

  /** Adds a snapshot as the most recent; the least recent past SAMPLERS_IN_MEMORY is retired (freed once its running samples end). */
  private keepSampler(key: string, model: Gpt): ServedSnapshot {
    this.samplers.get(key)?.retire();
    this.samplers.delete(key);
    const snap = new ServedSnapshot(model, 0);
    this.samplers.set(key, snap);
    for (const [k, old] of this.samplers) {
      if (this.samplers.size <= SAMPLERS_IN_MEMORY) break;
      old.retire();
      this.samplers.delete(k);
    }
    return snap;
  }

  private async sampler(path: TinkerPath): Promise<ServedSnapshot> {
    const key = formatPath(path);
    const loaded = this.samplers.get(key);
    if (loaded !== undefined) {
      // Most recently used goes last.
      this.samplers.delete(key);
      this.samplers.set(key, loaded);
      return loaded;
    }
    const dir = pathDir(this.stateDir, path);
    if (!existsSync(dir)) throw new OpenClawError('not_found', `no sampler weights at ${key}`, { param: 'model_path' });
    // Saved by an earlier run of the server, or dropped from memory: load it again.
    const data = await readCheckpoint(dir);
    return this.keepSampler(key, new Gpt(data.config.model, fromHost(data.weights)));
  }

  private async sample(a: SampleArgs, signal: AbortSignal): Promise<Record<string, unknown>> {
    // The JAX generator computes only the sampled token's log-prob per prompt position: the
    // request's future fails (jax.py L915-923).
    if (a.topkPromptLogprobs > 0 && !this.profile.topkPromptLogprobs)
      throw new OpenClawError('invalid_request', 'topk_prompt_logprobs is not supported by the JAX backend');
    if (a.path === null) return this.sampleOn(this.baseModel(), a, signal);
    return (await this.sampler(a.path)).use((snap) => this.sampleOn(snap.model, a, signal));
  }

  private async sampleOn(model: Gpt, a: SampleArgs, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (a.stopStrings.length > 0 && this.tokenizer === null)
      throw invalidRequest(
        "stop strings need the checkpoint's tokenizer, which this one lacks: send stop token ids",
        'sampling_params.stop',
      );
    const seed = a.seed ?? Math.floor(Math.random() * 2 ** 31);
    const sequences = [];
    const scripted = this.scripted(model, a);
    for (let i = 0; i < a.numSamples; i++) {
      if (scripted !== null) {
        sequences.push(scripted);
        continue;
      }
      const r = await this.sampleOne(model, a, seed + i, signal);
      // As SkyRL (and vLLM by default): sampled log-probs are of the raw distribution (T = 1),
      // whatever temperature drew the tokens; generateTokens reports them at T, so rescore.
      const logprobs =
        a.temperature !== 1 && a.temperature !== 0 && r.tokenIds.length > 0
          ? scoreTokens(model, a.prompt, r.tokenIds, 1).logprobs
          : r.logprobs;
      sequences.push({ tokens: r.tokenIds, logprobs, stop_reason: r.finishReason });
    }
    // SkyRL stores SampleOutput, which has no `type` (tinker/types.py L272-280).
    const out: Record<string, unknown> = this.profile.skyrl
      ? { sequences, prompt_logprobs: null, topk_prompt_logprobs: null }
      : { type: 'sample', sequences, prompt_logprobs: null, topk_prompt_logprobs: null };
    if (a.promptLogprobs || a.topkPromptLogprobs > 0) {
      // log p(prompt[i] | prompt[<i]) at temperature 1 for i ≥ 1; nothing predicts entry 0.
      const k = a.topkPromptLogprobs > 0 ? a.topkPromptLogprobs : undefined;
      const scored = scoreTokens(model, a.prompt.slice(0, 1), a.prompt.slice(1), 1, k);
      // SkyRL-JAX returns the P−1 scored entries without the leading null (generator.py L229,
      // L437-439); the SDK and vLLM (SkyRL-Train) put a null first: P entries.
      out.prompt_logprobs = this.profile.promptLogprobs === 'p_minus_1' ? scored.logprobs : [null, ...scored.logprobs];
      if (k !== undefined)
        out.topk_prompt_logprobs = [null, ...(scored.topK ?? []).map((t) => Array.from(t.ids, (id, j) => [id, t.logprobs[j]]))];
    }
    return out;
  }

  /**
   * The scripted answer to this prompt (script.ts), or null when no rule matches: the rule's
   * completion in the served vocabulary, cut as a sampled one would be, with the model's own
   * log-probs at temperature 1 (what a sampled sequence reports).
   */
  private scripted(model: Gpt, a: SampleArgs): { tokens: number[]; logprobs: number[]; stop_reason: string } | null {
    const tok = this.tokenizer;
    if (this.script.length === 0 || tok === null) return null;
    const rule = matchScript(this.script, tok.decode(a.prompt));
    if (rule === null) return null;
    const ids = tok.encode(rule.completion);
    const bad = ids.find((id) => id >= model.config.vocabSize);
    if (bad !== undefined)
      throw new OpenClawError(
        'config',
        `scripted completion /${rule.match}/ encodes to id ${bad}, outside the model's vocabulary of ${model.config.vocabSize}`,
      );
    const room = model.config.ctx - a.prompt.length;
    const cut = cutScripted(ids, {
      maxTokens: Math.min(a.maxTokens, room),
      stopTokens: a.stopTokens,
      stopStrings: a.stopStrings,
      decode: tok.decode,
    });
    const logprobs = cut.tokens.length > 0 ? scoreTokens(model, a.prompt, cut.tokens, 1).logprobs : [];
    return { tokens: cut.tokens, logprobs, stop_reason: cut.finishReason };
  }

  /** One sequence; stop token ids end it (kept as the last token), as do stop strings. */
  private async sampleOne(model: Gpt, a: SampleArgs, seed: number, signal: AbortSignal): Promise<GeneratedTokens> {
    const req = {
      promptIds: a.prompt,
      maxTokens: a.maxTokens,
      temperature: a.temperature,
      topP: a.topP,
      stopTokenIds: a.stopTokens,
      includeStopToken: true,
      seed,
      signal,
    };
    const tok = this.tokenizer;
    if (a.stopStrings.length === 0 || tok === null) return generateTokens(model, req);
    const ids: number[] = [];
    const logprobs: number[] = [];
    const stop = new AbortController();
    const onAbort = () => stop.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await generateTokens(model, { ...req, signal: stop.signal }, (id, lp) => {
        ids.push(id);
        logprobs.push(lp);
        const text = tok.decode(ids);
        if (a.stopStrings.some((s) => text.includes(s))) stop.abort(STOP_STRING);
      });
    } catch (err) {
      if (err === STOP_STRING) return { tokenIds: ids, logprobs, finishReason: 'stop' };
      throw err;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * The forward / forward_backward result in the profile's shape. Hosted: logprobs and
   * elementwise_loss per datum, metrics loss:sum. SkyRL-JAX: the same outputs (elementwise_loss =
   * weighted per-token loss), metrics {} (jax.py L757-784). SkyRL-Train: forward_backward gives
   * logprobs (+ elementwise_loss for cross_entropy) and the worker's metrics renamed
   * (skyrl_train_backend.py L767-823, worker.py L998-1120); forward gives logprobs only, metrics {}.
   */
  private fbResult(o: LearnerOutput, a: WorkerOps['forward'], backward: boolean): Record<string, unknown> {
    const outputs = (withLoss: boolean) =>
      o.logprobs.map((lp, i) =>
        withLoss ? { logprobs: tensor(lp), elementwise_loss: tensor(o.elementwise[i]) } : { logprobs: tensor(lp) },
      );
    const name = this.profile.name;
    if (name === 'hosted') return { loss_fn_output_type: 'scalar', loss_fn_outputs: outputs(true), metrics: { 'loss:sum': o.loss } };
    if (name === 'skyrl-jax')
      return {
        loss_fn_output_type: 'scalar',
        loss_fn_outputs: o.logprobs.map((lp, i) => ({ elementwise_loss: tensor(o.elementwise[i]), logprobs: tensor(lp) })),
        metrics: {},
      };
    if (!backward) return { loss_fn_output_type: 'scalar', loss_fn_outputs: outputs(false), metrics: {} };
    const responseLength = Math.max(...a.datums.map((d) => d.input.length));
    if (a.lossFn === 'cross_entropy')
      return {
        loss_fn_output_type: 'scalar',
        loss_fn_outputs: outputs(true),
        metrics: { 'total_loss:sum': o.loss, 'num_tokens:sum': responseLength },
      };
    const metrics: Record<string, number> = {
      'total_loss:sum': o.loss,
      'pg_loss:sum': o.loss,
      'num_tokens:sum': responseLength,
      'policy_lr:last': this.lastLr.get(a.modelId) ?? SKYRL_TRAIN_OPTIMIZER.initialLr,
    };
    if (a.datums.some((d) => d.logprobs !== undefined)) Object.assign(metrics, rolloutDiff(o, a.datums));
    return { loss_fn_output_type: 'scalar', loss_fn_outputs: outputs(false), metrics };
  }

  private close(): void {
    for (const m of this.models.values()) disposeTrainingModel(m);
    this.models.clear();
    for (const s of this.samplers.values()) s.retire();
    this.samplers.clear();
    this.base?.dispose();
    this.base = null;
  }
}

const tensor = (data: number[]) => ({ data, dtype: 'float32', shape: [data.length] });

/** Mean, RMS-derived std, max and min of |lp − old| over positions with a non-zero weight (SkyRL-Train worker_utils.py L50-58). */
function rolloutDiff(o: LearnerOutput, datums: readonly LearnerDatum[]): Record<string, number> {
  let n = 0;
  let sum = 0;
  let sq = 0;
  let max = -Infinity;
  let min = Infinity;
  datums.forEach((d, b) => {
    o.logprobs[b].forEach((lp, i) => {
      const w = d.weights?.[i] ?? 1;
      const diff = Math.abs(lp - (d.logprobs?.[i] ?? 0)) * w;
      max = Math.max(max, diff);
      min = Math.min(min, diff);
      if (w === 0) return;
      n += w;
      sum += diff;
      sq += diff * diff;
    });
  });
  const mean = n > 0 ? sum / n : 0;
  return {
    'policy/rollout_train_logprobs_abs_diff_mean:mean': mean,
    'policy/rollout_train_logprobs_abs_diff_std:mean': Math.sqrt(Math.max(0, (n > 0 ? sq / n : 0) - mean ** 2)),
    'policy/rollout_train_logprobs_abs_diff_max:max': max,
    'policy/rollout_train_logprobs_abs_diff_min:min': min,
  };
}

function checkSameShape(saved: GptConfig, current: GptConfig, path: string): void {
  const keys = ['vocabSize', 'dModel', 'nLayer', 'nHead', 'ctx'] as const;
  const diff = keys.filter((k) => saved[k] !== current[k]);
  if (diff.length > 0) {
    throw invalidRequest(
      `${path} was saved from a model of another shape (${diff.map((k) => `${k} ${saved[k]} ≠ ${current[k]}`).join(', ')}): it cannot be loaded into this server's base model`,
      'path',
    );
  }
}
