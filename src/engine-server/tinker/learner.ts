// The Tinker learner on the embedded Gpt: forward / forward_backward over Tinker datums, gradients
// accumulated across calls, and an AdamW step that applies and clears them. Runs inside the Tinker
// worker thread (worker.ts). Per datum b and target position i (model_input[i] predicts
// target_tokens[i]); lp = log_softmax(logits) at temperature 1:
//   cross_entropy        ℓ_i = −w_i·lp_i
//   importance_sampling  ℓ_i = −exp(lp_i − old_i)·A_i
//   ppo                  ℓ_i = −min(r_i·A_i, clamp(r_i, lo, hi)·A_i),  r_i = exp(lp_i − old_i)
// How the ℓ_i become the gradient is the server profile's reduction (profiles.ts):
//   sum                       Σ_b Σ_i ℓ_i (hosted: a client folds its normalisation into the inputs)
//   weighted_sum              Σ_b Σ_i w_i·ℓ_i for the RL losses too (SkyRL-Train: reduce_loss)
//   seq_mean_then_datum_mean  Σ_b (Σ_i w_i·ℓ_i / max(Σ_i w_i, 1e-9)), and optim_step divides the
//                             accumulated gradient by the number of datums (SkyRL-JAX)
// Positions with A = 0 (or w = 0) add exactly nothing to loss or gradient. The log-ratio is
// clamped to ±LOG_RATIO_BOUND before exp where the profile does (hosted as src/rl, SkyRL-Train).

import * as tf from '@tensorflow/tfjs';
import { OpenClawError } from '../../errors/index.ts';
import type { Gpt } from '../../engines/embedded/index.ts';
import type { AdamW, AdamWConfig } from '../../engines/embedded/index.ts';
import type { PackedBatch } from '../../engines/embedded/index.ts';
import { learnerLogprobs } from './head.ts';
import { LOG_RATIO_BOUND } from '../../rl/index.ts';
import type { Reduction } from './profiles.ts';

/** The loss functions served. */
export const LOSS_FNS = ['cross_entropy', 'importance_sampling', 'ppo'] as const;
export type LossFn = (typeof LOSS_FNS)[number];

/** One training example, already checked: every array has one entry per input position. */
export interface LearnerDatum {
  input: number[];
  targets: number[];
  weights?: number[];
  logprobs?: number[];
  advantages?: number[];
}

/** The learner's loss settings: ppo ratio bounds (loss_fn_config; Tinker's defaults 0.8 / 1.2) and the profile's reduction. */
export interface LearnerLossConfig {
  clipLow: number;
  clipHigh: number;
  /** Default 'sum' (hosted). */
  reduction?: Reduction;
  /** Log-ratio clamp before exp; null = none. Default LOG_RATIO_BOUND. */
  clamp?: number | null;
}

/** What forward / forward_backward report: learner log-probs per datum and the summed loss. */
export interface LearnerOutput {
  logprobs: number[][];
  /** Per-datum, per-position loss terms (their total is `loss`). */
  elementwise: number[][];
  loss: number;
}

/** How optim_step treats the accumulated gradient (profile). */
export interface OptimMode {
  /** Divide the accumulated gradient by the datums accumulated (SkyRL-JAX get_mean). */
  meanOverDatums: boolean;
  /** With nothing accumulated, still apply a step with zero gradients (SkyRL-JAX, jax.py L808-810) instead of skipping. */
  stepWhenEmpty: boolean;
}

/** What optim_step did. */
export interface OptimResult {
  skipped: boolean;
  /** Global L2 norm of the gradient the optimizer saw, before clipping. */
  gradNorm: number;
  accumulatedCalls: number;
  optimizerStep: number;
}

/** AdamW settings of one optim_step (Tinker's adam_params). */
export interface AdamStep {
  learningRate: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** Global-norm clip; 0 = none. */
  gradClipNorm: number;
}

/** A trained model: weights, AdamW state and the gradients accumulated since the last step. */
export interface TrainingModel {
  policy: Gpt;
  optimizer: AdamW;
  grads: Record<string, tf.Tensor> | null;
  /** forward_backward calls since the last optim_step. */
  accumulated: number;
  /** Datums accumulated since the last optim_step (SkyRL-JAX divides by them). */
  datums: number;
}

/** Lays datums out as one padded batch with a row for every target position. */
export function packDatums(datums: readonly LearnerDatum[], vocabSize: number): PackedBatch {
  const B = datums.length;
  const T = Math.max(...datums.map((d) => d.input.length));
  const tokens = new Int32Array(B * T);
  const R = datums.reduce((n, d) => n + d.input.length, 0);
  const rows = new Int32Array(R);
  const flatTargets = new Int32Array(R);
  const old = new Float32Array(R);
  const advantages = new Float32Array(R);
  const weights = new Float32Array(R);
  let r = 0;
  datums.forEach((d, b) => {
    tokens.set(d.input, b * T);
    for (let i = 0; i < d.input.length; i++, r++) {
      rows[r] = b * T + i;
      flatTargets[r] = r * vocabSize + d.targets[i];
      old[r] = d.logprobs?.[i] ?? 0;
      advantages[r] = d.advantages?.[i] ?? 0;
      weights[r] = d.weights?.[i] ?? 1;
    }
  });
  return { tokens, B, T, rows, flatTargets, old, advantages, weights, distill: null, count: R, sequenceTokens: R };
}

/** Per-position loss terms [R] of a batch given the learner log-probs [R]. Differentiable. */
function elementwiseLoss(chosen: tf.Tensor1D, batch: PackedBatch, lossFn: LossFn, cfg: LearnerLossConfig): tf.Tensor {
  const w = tf.tensor1d(batch.weights);
  if (lossFn === 'cross_entropy') return tf.neg(tf.mul(chosen, w));
  const adv = tf.tensor1d(batch.advantages);
  const bound = cfg.clamp === undefined ? LOG_RATIO_BOUND : cfg.clamp;
  const logRatio = tf.sub(chosen, tf.tensor1d(batch.old));
  const ratio = tf.exp(bound === null ? logRatio : tf.clipByValue(logRatio, -bound, bound));
  const unclipped = tf.mul(ratio, adv);
  const terms =
    lossFn === 'importance_sampling'
      ? tf.neg(unclipped)
      : tf.neg(tf.minimum(unclipped, tf.mul(tf.clipByValue(ratio, cfg.clipLow, cfg.clipHigh), adv)));
  if ((cfg.reduction ?? 'sum') === 'sum') return terms;
  // SkyRL masks every loss with the weights, "strongly": a zero weight gives exactly 0 even where
  // the term is not finite (loss_fns.py safe_loss_mask L20-22; ppo_utils.py reduce_loss).
  return tf.where(tf.notEqual(w, 0), tf.mul(terms, w), tf.zerosLike(terms));
}

/** The scalar the gradient is taken of: the profile's reduction of the per-position terms. */
function objective(terms: tf.Tensor, batch: PackedBatch, datums: readonly LearnerDatum[], cfg: LearnerLossConfig): tf.Scalar {
  if (cfg.reduction !== 'seq_mean_then_datum_mean') return tf.sum(terms) as tf.Scalar;
  // Per datum: Σ terms / max(Σ weights, 1e-9) (jax.py L406), the datums summed (L408).
  const scale = new Float32Array(batch.count);
  let r = 0;
  for (const d of datums) {
    let wsum = 0;
    for (let i = 0; i < d.input.length; i++) wsum += batch.weights[r + i];
    scale.fill(1 / Math.max(wsum, 1e-9), r, r + d.input.length);
    r += d.input.length;
  }
  return tf.sum(tf.mul(terms, tf.tensor1d(scale))) as tf.Scalar;
}

/** Splits a flat [R] array back into one array per datum. */
function perDatum(values: Float32Array, datums: readonly LearnerDatum[]): number[][] {
  const out: number[][] = [];
  let r = 0;
  for (const d of datums) {
    out.push(Array.from(values.subarray(r, r + d.input.length)));
    r += d.input.length;
  }
  return out;
}

function output(chosen: tf.Tensor, terms: tf.Tensor, datums: readonly LearnerDatum[]): LearnerOutput {
  const elementwise = perDatum(terms.dataSync() as Float32Array, datums);
  // Summed in float64 on the host: the API promises a sum, and float32 accumulation over long
  // sequences would drift from what a client recomputes.
  const loss = elementwise.reduce((s, row) => row.reduce((a, v) => a + v, s), 0);
  return { logprobs: perDatum(chosen.dataSync() as Float32Array, datums), elementwise, loss };
}

/** Loss and learner log-probs without gradients (Tinker's `forward`). */
export function forwardOnly(model: Gpt, datums: readonly LearnerDatum[], lossFn: LossFn, cfg: LearnerLossConfig): LearnerOutput {
  const batch = packDatums(datums, model.config.vocabSize);
  const { chosen, terms } = tf.tidy(() => {
    const c = learnerLogprobs(model, batch);
    return { chosen: c, terms: elementwiseLoss(c, batch, lossFn, cfg) };
  });
  try {
    return output(chosen, terms, datums);
  } finally {
    tf.dispose([chosen, terms]);
  }
}

/** Loss, learner log-probs and gradients; the gradients are added to the model's accumulator. */
export function forwardBackward(m: TrainingModel, datums: readonly LearnerDatum[], lossFn: LossFn, cfg: LearnerLossConfig): LearnerOutput {
  const batch = packDatums(datums, m.policy.config.vocabSize);
  const paramOf = new Map(
    Object.entries(m.policy.params).flatMap(([name, p]) => (p instanceof tf.Variable ? [[p.name, name] as const] : [])),
  );
  let kept: { chosen: tf.Tensor; terms: tf.Tensor } | null = null;
  const { value, grads } = tf.variableGrads(() => {
    const chosen = learnerLogprobs(m.policy, batch);
    const terms = elementwiseLoss(chosen, batch, lossFn, cfg);
    // Kept past variableGrads' scope, which frees everything the forward pass made.
    kept = { chosen: tf.keep(chosen), terms: tf.keep(terms) };
    return objective(terms, batch, datums, cfg);
  }, m.policy.variables());
  value.dispose();
  const { chosen, terms } = kept as unknown as { chosen: tf.Tensor; terms: tf.Tensor };
  try {
    const named: Record<string, tf.Tensor> = {};
    for (const [varName, g] of Object.entries(grads)) named[paramOf.get(varName) ?? varName] = g;
    if (m.grads === null) m.grads = named;
    else {
      const sum = m.grads;
      for (const [name, g] of Object.entries(named)) {
        const prev = sum[name];
        sum[name] = prev === undefined ? g : tf.keep(tf.add(prev, g));
        if (prev !== undefined) tf.dispose([prev, g]);
      }
    }
    m.accumulated += 1;
    m.datums += datums.length;
    return output(chosen, terms, datums);
  } finally {
    tf.dispose([chosen, terms]);
  }
}

/** Global L2 norm of a set of gradients. */
function globalNorm(grads: Record<string, tf.Tensor>): number {
  const t = tf.tidy(() => tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g))))));
  try {
    return t.dataSync()[0];
  } finally {
    t.dispose();
  }
}

/**
 * One AdamW update from the accumulated gradients (averaged over datums and clipped to
 * `gradClipNorm` first, as the mode and settings say), then the accumulator is cleared. Without
 * accumulated gradients nothing moves (as torch skips a weight whose .grad is None), unless the
 * mode steps with zero gradients as SkyRL-JAX does (Adam's momentum still moves the weights).
 */
export function optimStep(
  m: TrainingModel,
  adam: AdamStep,
  mode: OptimMode = { meanOverDatums: false, stepWhenEmpty: false },
): OptimResult {
  let grads = m.grads;
  const accumulated = m.accumulated;
  const datums = m.datums;
  m.grads = null;
  m.accumulated = 0;
  m.datums = 0;
  if (grads === null) {
    if (!mode.stepWhenEmpty) return { skipped: true, gradNorm: 0, optimizerStep: m.optimizer.step, accumulatedCalls: 0 };
    grads = Object.fromEntries(m.policy.variables().map((v) => [paramName(m, v), tf.zerosLike(v)]));
  }
  try {
    if (mode.meanOverDatums && datums > 1) {
      const sum = grads;
      grads = tf.tidy(() => Object.fromEntries(Object.entries(sum).map(([k, g]) => [k, tf.div(g, datums)])));
      tf.dispose(Object.values(sum));
    }
    const norm = globalNorm(grads);
    if (!Number.isFinite(norm))
      throw new OpenClawError(
        'invalid_request',
        `the accumulated gradient norm is ${norm}: the update was not applied (check the loss inputs for NaN or huge values)`,
      );
    const scale = adam.gradClipNorm > 0 && norm > adam.gradClipNorm ? adam.gradClipNorm / norm : 1;
    const g = grads;
    const applied = scale === 1 ? g : tf.tidy(() => Object.fromEntries(Object.entries(g).map(([k, t]) => [k, tf.mul(t, scale)])));
    const overrides: Partial<AdamWConfig> = { beta1: adam.beta1, beta2: adam.beta2, eps: adam.eps };
    m.optimizer.apply(m.policy.params, applied, adam.learningRate, adam.weightDecay, overrides);
    if (applied !== g) tf.dispose(Object.values(applied));
    return { skipped: false, gradNorm: norm, optimizerStep: m.optimizer.step, accumulatedCalls: accumulated };
  } finally {
    tf.dispose(Object.values(grads));
  }
}

/** The params key of a trainable variable. */
function paramName(m: TrainingModel, v: tf.Variable): string {
  for (const [name, p] of Object.entries(m.policy.params)) if (p === v) return name;
  return v.name;
}

/** Frees a training model's tensors. */
export function disposeTrainingModel(m: TrainingModel): void {
  m.policy.dispose();
  m.optimizer.dispose();
  if (m.grads !== null) tf.dispose(Object.values(m.grads));
  m.grads = null;
}
