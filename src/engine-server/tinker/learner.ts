// The Tinker learner on the embedded Gpt: forward / forward_backward over Tinker datums with the
// API's SUM losses, gradients accumulated across calls, and an AdamW step that applies and clears
// them. Runs inside the Tinker worker thread (worker.ts). Per datum b and target position i
// (model_input[i] predicts target_tokens[i]); lp = log_softmax(logits) at temperature 1:
//   cross_entropy        loss = −Σ w_i·lp_i
//   importance_sampling  loss = −Σ exp(lp_i − old_i)·A_i
//   ppo                  loss = −Σ min(r_i·A_i, clamp(r_i, lo, hi)·A_i),  r_i = exp(lp_i − old_i)
// summed over positions and datums (never averaged): a client folds its own normalisation into
// the weights/advantages. Positions with A = 0 (or w = 0) add exactly nothing to loss or gradient.
// The log-ratio is clamped to ±LOG_RATIO_BOUND before exp, as in src/rl.

import * as tf from '@tensorflow/tfjs';
import { OpenClawError } from '../../errors/index.ts';
import type { Gpt } from '../../engines/embedded/model.ts';
import type { AdamW, AdamWConfig } from '../../engines/embedded/optimizer.ts';
import { trainLogprobs, type PackedBatch } from '../../engines/embedded/train.ts';
import { LOG_RATIO_BOUND } from '../../rl/ppo.ts';

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

/** Ratio bounds of ppo (Tinker's defaults 0.8 / 1.2). */
export interface LossConfig {
  clipLow: number;
  clipHigh: number;
}

/** What forward / forward_backward report: learner log-probs per datum and the summed loss. */
export interface LearnerOutput {
  logprobs: number[][];
  /** Per-datum, per-position loss terms (their total is `loss`). */
  elementwise: number[][];
  loss: number;
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
function elementwiseLoss(chosen: tf.Tensor1D, batch: PackedBatch, lossFn: LossFn, cfg: LossConfig): tf.Tensor {
  if (lossFn === 'cross_entropy') return tf.neg(tf.mul(chosen, tf.tensor1d(batch.weights)));
  const adv = tf.tensor1d(batch.advantages);
  const ratio = tf.exp(tf.clipByValue(tf.sub(chosen, tf.tensor1d(batch.old)), -LOG_RATIO_BOUND, LOG_RATIO_BOUND));
  const unclipped = tf.mul(ratio, adv);
  if (lossFn === 'importance_sampling') return tf.neg(unclipped);
  return tf.neg(tf.minimum(unclipped, tf.mul(tf.clipByValue(ratio, cfg.clipLow, cfg.clipHigh), adv)));
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
export function forwardOnly(model: Gpt, datums: readonly LearnerDatum[], lossFn: LossFn, cfg: LossConfig): LearnerOutput {
  const batch = packDatums(datums, model.config.vocabSize);
  const { chosen, terms } = tf.tidy(() => {
    const c = trainLogprobs(model, batch, 1).chosen;
    return { chosen: c, terms: elementwiseLoss(c, batch, lossFn, cfg) };
  });
  try {
    return output(chosen, terms, datums);
  } finally {
    tf.dispose([chosen, terms]);
  }
}

/** Loss, learner log-probs and gradients; the gradients are added to the model's accumulator. */
export function forwardBackward(m: TrainingModel, datums: readonly LearnerDatum[], lossFn: LossFn, cfg: LossConfig): LearnerOutput {
  const batch = packDatums(datums, m.policy.config.vocabSize);
  const paramOf = new Map(
    Object.entries(m.policy.params).flatMap(([name, p]) => (p instanceof tf.Variable ? [[p.name, name] as const] : [])),
  );
  let kept: { chosen: tf.Tensor; terms: tf.Tensor } | null = null;
  const { value, grads } = tf.variableGrads(() => {
    const chosen = trainLogprobs(m.policy, batch, 1).chosen;
    const terms = elementwiseLoss(chosen, batch, lossFn, cfg);
    // Kept past variableGrads' scope, which frees everything the forward pass made.
    kept = { chosen: tf.keep(chosen), terms: tf.keep(terms) };
    return tf.sum(terms) as tf.Scalar;
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
 * One AdamW update from the accumulated gradients (clipped to `gradClipNorm` first), then the
 * accumulator is cleared. Without accumulated gradients nothing moves (as torch skips a weight
 * whose .grad is None) and `skipped` is 1.
 */
export function optimStep(m: TrainingModel, adam: AdamStep): Record<string, number> {
  const grads = m.grads;
  const accumulated = m.accumulated;
  m.grads = null;
  m.accumulated = 0;
  if (grads === null) return { skipped: 1, grad_norm: 0, optimizer_step: m.optimizer.step, accumulated_calls: 0 };
  try {
    const norm = globalNorm(grads);
    if (!Number.isFinite(norm))
      throw new OpenClawError(
        'invalid_request',
        `the accumulated gradient norm is ${norm}: the update was not applied (check the loss inputs for NaN or huge values)`,
      );
    const scale = adam.gradClipNorm > 0 && norm > adam.gradClipNorm ? adam.gradClipNorm / norm : 1;
    const applied = scale === 1 ? grads : tf.tidy(() => Object.fromEntries(Object.entries(grads).map(([k, g]) => [k, tf.mul(g, scale)])));
    const overrides: Partial<AdamWConfig> = { beta1: adam.beta1, beta2: adam.beta2, eps: adam.eps };
    m.optimizer.apply(m.policy.params, applied, adam.learningRate, adam.weightDecay, overrides);
    if (applied !== grads) tf.dispose(Object.values(applied));
    return { skipped: 0, grad_norm: norm, optimizer_step: m.optimizer.step, accumulated_calls: accumulated };
  } finally {
    tf.dispose(Object.values(grads));
  }
}

/** Frees a training model's tensors. */
export function disposeTrainingModel(m: TrainingModel): void {
  m.policy.dispose();
  m.optimizer.dispose();
  if (m.grads !== null) tf.dispose(Object.values(m.grads));
  m.grads = null;
}
