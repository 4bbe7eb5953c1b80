// One PPO training step on a Gpt (docs/design.md §2), per response token t of sample i:
//   ρ_t  = exp(logπ_θ(a_t) − logπ_old(a_t))              log-probs = log_softmax(logits / T)
//   pg_t = −min(ρ_t·A_t, clip(ρ_t, 1−ε, 1+ε_high)·A_t)
//   kl_t = low_var_kl(logπ_θ, logπ_ref)                   (klCoef > 0, frozen reference copy)
//   ds_t = reverse KL over the teacher's top-K tokens + one tail bin (distillTopKCoef > 0)
//   loss = mean_i mean_t∈mask_i (pg_t + klCoef·kl_t − entropyCoef·H_t + distillTopKCoef·ds_t)
// Samples without any masked token are skipped (they would average 0/0). The PPO part is the
// tensor form of src/rl's ppoBatchLoss, with its clamp constants and its reduction (metrics
// included); train-parity.test.ts checks values and gradients against it.

import * as tf from '@tensorflow/tfjs';
import { OpenClawError } from '../../errors/index.ts';
import { KL_VALUE_BOUND, LOG_RATIO_BOUND, sampleMeanWeights } from '../../rl/index.ts';
import type { LossConfig, TrainOptions, TrainSample, TrainStepMetrics } from '../types.ts';
import { gatherRows, type Gpt } from './model.ts';
import type { AdamW } from './optimizer.ts';
import { logprobTemperature } from '../types.ts';

const TAIL_FLOOR = 1e-6;

/** Samples laid out for one forward pass: padded tokens plus one row per masked response token. */
export interface PackedBatch {
  tokens: Int32Array;
  B: number;
  T: number;
  /** Row of the [B·T, d] hidden states that predicts each trained token. */
  rows: Int32Array;
  /** rows[r]·V + target: index of the trained token's log-prob in the flattened [R, V] matrix. */
  flatTargets: Int32Array;
  old: Float32Array;
  advantages: Float32Array;
  /** Per-token weight that turns a weighted sum into rl's sample mean (sampleMeanWeights). */
  weights: Float32Array;
  distill: { K: number; flatIds: Int32Array; logprobs: Float32Array; tail: Float32Array; weights: Float32Array } | null;
  /** Trained (masked) tokens and all tokens fed to the model. */
  count: number;
  sequenceTokens: number;
}

function masked(s: TrainSample): number[] {
  const out: number[] = [];
  s.lossMask.forEach((m, t) => {
    if (m > 0) out.push(t);
  });
  return out;
}

/** Throws a data error naming the sample and field when per-token arrays do not line up. */
export function validateSample(s: TrainSample, i: number, ctx: number, vocabSize: number): void {
  const n = s.responseIds.length;
  const fields = { rolloutLogprobs: s.rolloutLogprobs, advantages: s.advantages, lossMask: s.lossMask } as const;
  for (const [name, values] of Object.entries(fields)) {
    if (values.length !== n) throw new OpenClawError('data', `sample ${i}: ${name} has ${values.length} entries for ${n} response tokens`);
  }
  if (s.teacherTopK !== undefined && s.teacherTopK.length !== n) {
    throw new OpenClawError('data', `sample ${i}: teacherTopK has ${s.teacherTopK.length} entries for ${n} response tokens`);
  }
  if (s.promptIds.length === 0) throw new OpenClawError('data', `sample ${i}: empty prompt`);
  if (s.promptIds.length + n - 1 > ctx) {
    throw new OpenClawError('data', `sample ${i}: ${s.promptIds.length} prompt + ${n} response tokens exceed the model context of ${ctx}`);
  }
  for (const id of [...s.promptIds, ...s.responseIds]) {
    if (!Number.isInteger(id) || id < 0 || id >= vocabSize)
      throw new OpenClawError('data', `sample ${i}: token id ${id} outside the vocabulary of ${vocabSize}`);
  }
}

/** Packs samples (each with ≥ 1 masked token) into one padded batch. */
export function packBatch(samples: readonly TrainSample[], vocabSize: number, withDistill: boolean): PackedBatch {
  const B = samples.length;
  const T = Math.max(...samples.map((s) => s.promptIds.length + s.responseIds.length - 1));
  const tokens = new Int32Array(B * T);
  const rows: number[] = [];
  const flatTargets: number[] = [];
  const old: number[] = [];
  const advantages: number[] = [];
  const weights: number[] = [];
  const K = withDistill ? (samples.find((s) => s.teacherTopK !== undefined)?.teacherTopK?.[0]?.ids.length ?? 0) : 0;
  const dIds: number[] = [];
  const dLogprobs: number[] = [];
  const dTail: number[] = [];
  const dHas: number[] = [];
  let sequenceTokens = 0;
  const sampleWeights = sampleMeanWeights(samples.map((s) => s.lossMask));
  samples.forEach((s, b) => {
    const ids = [...s.promptIds, ...s.responseIds];
    tokens.set(ids.slice(0, ids.length - 1), b * T);
    sequenceTokens += ids.length - 1;
    const trained = masked(s);
    for (const t of trained) {
      const r = rows.length;
      rows.push(b * T + s.promptIds.length - 1 + t);
      flatTargets.push(r * vocabSize + s.responseIds[t]);
      old.push(s.rolloutLogprobs[t]);
      advantages.push(s.advantages[t]);
      weights.push(sampleWeights[b][t]);
      if (K > 0) {
        const top = s.teacherTopK?.[t];
        const has = top !== undefined && top.ids.length === K;
        if (top !== undefined && top.ids.length !== K) {
          throw new OpenClawError('data', `teacherTopK has ${top.ids.length} entries at a token where the batch uses K = ${K}`);
        }
        let mass = 0;
        for (let k = 0; k < K; k++) {
          dIds.push(r * vocabSize + (has ? Number(top.ids[k]) : 0));
          const lp = has ? Number(top.logprobs[k]) : 0;
          dLogprobs.push(lp);
          mass += has ? Math.exp(lp) : 0;
        }
        dTail.push(Math.log(Math.max(1 - mass, TAIL_FLOOR)));
        dHas.push(has ? 1 : 0);
      }
    }
  });
  return {
    tokens,
    B,
    T,
    rows: Int32Array.from(rows),
    flatTargets: Int32Array.from(flatTargets),
    old: Float32Array.from(old),
    advantages: Float32Array.from(advantages),
    weights: Float32Array.from(weights),
    distill:
      K > 0
        ? {
            K,
            flatIds: Int32Array.from(dIds),
            logprobs: Float32Array.from(dLogprobs),
            tail: Float32Array.from(dTail),
            weights: distillWeights(samples, dHas),
          }
        : null,
    count: rows.length,
    sequenceTokens,
  };
}

/** Mean over each sample's tokens that have teacher data, then over samples that have any. */
function distillWeights(samples: readonly TrainSample[], has: number[]): Float32Array {
  const out = new Float32Array(has.length);
  const perSample: number[][] = [];
  let r = 0;
  for (const s of samples) {
    const idx: number[] = [];
    for (let i = 0; i < masked(s).length; i++, r++) if (has[r] === 1) idx.push(r);
    perSample.push(idx);
  }
  const withData = perSample.filter((idx) => idx.length > 0).length;
  for (const idx of perSample) for (const i of idx) out[i] = 1 / (idx.length * withData);
  return out;
}

/** Log-probs at temperature T of the trained tokens ([R]) and the full rows ([R, V]). Differentiable. */
export function trainLogprobs(model: Gpt, batch: PackedBatch, temperature: number): { chosen: tf.Tensor1D; all: tf.Tensor2D } {
  const h = model.hidden(batch.tokens, batch.B, batch.T);
  const all = tf.logSoftmax(tf.div(model.logits(gatherRows(h, batch.rows)), logprobTemperature(temperature))) as tf.Tensor2D;
  const chosen = tf.reshape(gatherRows(tf.reshape(all, [-1, 1]), batch.flatTargets), [-1]) as tf.Tensor1D;
  return { chosen, all };
}

/** The scalar loss and the metric scalars of one minibatch. */
export interface LossTerms {
  loss: tf.Scalar;
  chosen: tf.Tensor1D;
  metrics: Record<'pg_loss' | 'pg_clipfrac' | 'ppo_kl' | 'entropy' | 'kl_loss' | 'distill_loss', tf.Scalar>;
}

/** Builds the loss of docs/design.md §2 for a packed batch (see the file header). */
export function lossTerms(model: Gpt, batch: PackedBatch, opts: TrainOptions, refLogprobs: Float32Array | null): LossTerms {
  const { chosen, all } = trainLogprobs(model, batch, opts.temperature);
  return { ...lossFromLogprobs(chosen, all, batch, opts.loss, refLogprobs), chosen };
}

/**
 * The loss and metrics given the trained tokens' log-probs `chosen` ([R]) and their full rows
 * `all` ([R, V]): everything after the forward pass, so a test can feed log-probs directly.
 */
export function lossFromLogprobs(
  chosen: tf.Tensor1D,
  all: tf.Tensor2D,
  batch: PackedBatch,
  lossConfig: LossConfig,
  refLogprobs: Float32Array | null,
): Omit<LossTerms, 'chosen'> {
  const { clipRatio, clipRatioHigh, klCoef, entropyCoef, distillTopKCoef } = lossConfig;
  const old = tf.tensor1d(batch.old);
  const adv = tf.tensor1d(batch.advantages);
  const w = tf.tensor1d(batch.weights);
  const weighted = (perToken: tf.Tensor) => tf.sum(tf.mul(perToken, w)) as tf.Scalar;
  const ratio = tf.exp(tf.clipByValue(tf.sub(chosen, old), -LOG_RATIO_BOUND, LOG_RATIO_BOUND));
  const unclipped = tf.mul(ratio, adv);
  const clipped = tf.mul(tf.clipByValue(ratio, 1 - clipRatio, 1 + clipRatioHigh), adv);
  const pgLoss = weighted(tf.neg(tf.minimum(unclipped, clipped)));
  const entropy = weighted(tf.neg(tf.sum(tf.mul(tf.exp(all), all), -1)));
  let klLoss = tf.scalar(0);
  if (klCoef !== 0 && refLogprobs !== null) {
    const d = tf.clipByValue(tf.sub(tf.tensor1d(refLogprobs), chosen), -LOG_RATIO_BOUND, LOG_RATIO_BOUND);
    klLoss = weighted(tf.clipByValue(tf.sub(tf.sub(tf.exp(d), d), 1), -KL_VALUE_BOUND, KL_VALUE_BOUND));
  }
  let distillLoss = tf.scalar(0);
  if (distillTopKCoef !== 0 && batch.distill !== null) {
    const { K, flatIds, logprobs, tail, weights } = batch.distill;
    const s = tf.reshape(gatherRows(tf.reshape(all, [-1, 1]), flatIds), [-1, K]);
    const ps = tf.exp(s);
    const tailMass = tf.clipByValue(tf.sub(1, tf.sum(ps, -1)), TAIL_FLOOR, 1);
    const perToken = tf.add(
      tf.sum(tf.mul(ps, tf.sub(s, tf.tensor2d(logprobs, [batch.count, K]))), -1),
      tf.mul(tailMass, tf.sub(tf.log(tailMass), tf.tensor1d(tail))),
    );
    distillLoss = tf.sum(tf.mul(perToken, tf.tensor1d(weights))) as tf.Scalar;
  }
  const loss = tf.addN([pgLoss, tf.mul(klLoss, klCoef), tf.mul(entropy, -entropyCoef), tf.mul(distillLoss, distillTopKCoef)]) as tf.Scalar;
  return {
    loss,
    metrics: {
      pg_loss: pgLoss,
      // Same weights as the loss (see src/rl/loss.ts for why the metrics are sample means).
      pg_clipfrac: weighted(tf.cast(tf.less(clipped, unclipped), 'float32')),
      ppo_kl: weighted(tf.sub(old, chosen)),
      entropy,
      kl_loss: klLoss,
      distill_loss: distillLoss,
    },
  };
}

/** Models a train step needs: the policy with its optimizer, and the frozen reference (for KL). */
export interface TrainContext {
  policy: Gpt;
  optimizer: AdamW;
  reference: Gpt | null;
}

function splitEvenly<T>(items: readonly T[], parts: number): T[][] {
  const n = Math.max(1, Math.min(parts, items.length));
  const out: T[][] = [];
  for (let i = 0; i < n; i++) out.push(items.slice(Math.floor((i * items.length) / n), Math.floor(((i + 1) * items.length) / n)));
  return out;
}

/** Runs fn in a tidy scope and returns the values of the tensor it makes (freed after reading). */
function readTidy(fn: () => tf.Tensor): Float32Array {
  const t = tf.tidy(fn);
  try {
    return t.dataSync() as Float32Array;
  } finally {
    t.dispose();
  }
}

function readLogprobs(model: Gpt, batch: PackedBatch, temperature: number): Float32Array {
  return readTidy(() => trainLogprobs(model, batch, temperature).chosen);
}

function meanAbsDiff(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return a.length === 0 ? 0 : sum / a.length;
}

/** Validates options; lr etc. must be finite and non-negative. */
function validateOptions(opts: TrainOptions): void {
  const numbers = {
    lr: opts.lr,
    epochs: opts.epochs,
    minibatches: opts.minibatches,
    maxGradNorm: opts.maxGradNorm,
    weightDecay: opts.weightDecay,
    temperature: opts.temperature,
  };
  for (const [name, value] of Object.entries(numbers)) {
    if (!Number.isFinite(value) || value < 0)
      throw new OpenClawError('config', `train option ${name} must be a finite number ≥ 0, got ${value}`);
  }
  if (!Number.isInteger(opts.epochs) || opts.epochs < 1)
    throw new OpenClawError('config', `train option epochs must be an integer ≥ 1, got ${opts.epochs}`);
  if (!Number.isInteger(opts.minibatches) || opts.minibatches < 1)
    throw new OpenClawError('config', `train option minibatches must be an integer ≥ 1, got ${opts.minibatches}`);
}

/**
 * epochs × minibatches AdamW updates of the PPO loss. Metrics are means over the updates, except
 * train_rollout_logprob_abs_diff (measured before any update) and tokens (masked tokens in `samples`).
 */
export function trainStep(ctx: TrainContext, samples: readonly TrainSample[], opts: TrainOptions): TrainStepMetrics {
  validateOptions(opts);
  const { policy, optimizer } = ctx;
  const { ctx: maxLen, vocabSize } = policy.config;
  samples.forEach((s, i) => validateSample(s, i, maxLen, vocabSize));
  const active = samples.filter((s) => s.lossMask.some((m) => m > 0));
  const sums: Record<string, number> = { pg_loss: 0, pg_clipfrac: 0, ppo_kl: 0, entropy: 0, kl_loss: 0, distill_loss: 0, grad_norm: 0 };
  const result = (updates: number, rolloutDiff: number, tokens: number, sequenceTokens: number): TrainStepMetrics => {
    const mean = (k: string) => (updates === 0 ? 0 : sums[k] / updates);
    return {
      pg_loss: mean('pg_loss'),
      pg_clipfrac: mean('pg_clipfrac'),
      ppo_kl: mean('ppo_kl'),
      entropy: mean('entropy'),
      kl_loss: mean('kl_loss'),
      distill_loss: mean('distill_loss'),
      grad_norm: mean('grad_norm'),
      train_rollout_logprob_abs_diff: rolloutDiff,
      tokens,
      sequence_tokens: sequenceTokens,
      updates,
      optimizer_step: optimizer.step,
    };
  };
  if (active.length === 0) return result(0, 0, 0, 0);

  const withDistill = opts.loss.distillTopKCoef !== 0;
  const batches = splitEvenly(active, opts.minibatches).map((part) => packBatch(part, vocabSize, withDistill));
  const useKl = opts.loss.klCoef !== 0 && ctx.reference !== null;
  const refLogprobs = batches.map((b) => (useKl && ctx.reference !== null ? readLogprobs(ctx.reference, b, opts.temperature) : null));
  // Log-probs before any update: the train/rollout gap. Minibatch 0 gets them from its first pass.
  const before: Array<Float32Array | null> = batches.map((b, i) => (i === 0 ? null : readLogprobs(policy, b, opts.temperature)));
  const variables = policy.variables();
  const paramOf = new Map(
    Object.entries(policy.params).flatMap(([name, p]) => (p instanceof tf.Variable ? [[p.name, name] as const] : [])),
  );
  let updates = 0;
  let sequenceTokens = 0;
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    batches.forEach((batch, i) => {
      let kept: LossTerms | null = null;
      const { value, grads } = tf.variableGrads(() => {
        const terms = lossTerms(policy, batch, opts, refLogprobs[i]);
        // Kept past variableGrads' scope, which frees everything the forward pass made.
        tf.keep(terms.chosen);
        Object.values(terms.metrics).forEach((t) => tf.keep(t));
        kept = terms;
        return terms.loss;
      }, variables);
      value.dispose();
      const terms = kept as unknown as LossTerms;
      if (epoch === 0 && i === 0) before[0] = terms.chosen.dataSync() as Float32Array;
      for (const [name, t] of Object.entries(terms.metrics)) sums[name] += t.dataSync()[0];
      tf.dispose([terms.chosen, ...Object.values(terms.metrics)]);
      const named: Record<string, tf.Tensor> = {};
      for (const [varName, g] of Object.entries(grads)) named[paramOf.get(varName) ?? varName] = g;
      const norm = Math.sqrt(readTidy(() => tf.addN(Object.values(named).map((g) => tf.sum(tf.square(g)))))[0]);
      sums.grad_norm += norm;
      const scale = opts.maxGradNorm > 0 && norm > opts.maxGradNorm ? opts.maxGradNorm / (norm + 1e-6) : 1;
      const clipped = scale === 1 ? named : tf.tidy(() => Object.fromEntries(Object.entries(named).map(([k, g]) => [k, tf.mul(g, scale)])));
      optimizer.apply(policy.params, clipped, opts.lr, opts.weightDecay);
      tf.dispose(Object.values(grads));
      if (clipped !== named) tf.dispose(Object.values(clipped));
      updates += 1;
      sequenceTokens += batch.sequenceTokens;
    });
  }
  const old = Float32Array.from(batches.flatMap((b) => Array.from(b.old)));
  const fresh = Float32Array.from(before.flatMap((b) => Array.from(b ?? [])));
  const tokens = batches.reduce((n, b) => n + b.count, 0);
  return result(updates, meanAbsDiff(fresh, old), tokens, sequenceTokens);
}
