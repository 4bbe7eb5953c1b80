// Supervised next-token training of the embedded GPT, for building a base checkpoint: the loss
// is the cross-entropy of the target tokens (an assistant answer and its <|im_end|>) after their
// prompt, averaged over all target tokens of the batch (token mean, not sample mean: a sample
// mean would overweight short answers and so skew the style distribution the model learns).
// With length-bucketed batches a per-batch token mean brings that skew back one level up: a
// batch of short answers has few tokens, so each of its tokens weighs several times more than
// a token of a long batch (this made the base model answer tersely about twice as often as its
// corpus). `tokenNormalizer` fixes the divisor across batches (e.g. batch size × the corpus's
// mean target length), so every target token weighs the same in every step.
// The forward pass and the packing are the PPO trainer's (train.ts); log-probs at T = 1.

import * as tf from '@tensorflow/tfjs';
import { OpenClawError } from '../../errors/index.ts';
import type { TrainSample } from '../types.ts';
import type { Gpt } from './model.ts';
import type { AdamW } from './optimizer.ts';
import { packBatch, trainLogprobs, validateSample, type PackedBatch } from './train.ts';

/** A prompt and the tokens to learn after it. */
export interface SupervisedExample {
  promptIds: readonly number[];
  targetIds: readonly number[];
}

/** Per-update settings. */
export interface SupervisedStepOptions {
  lr: number;
  weightDecay: number;
  /** Global gradient-norm clip; 0 turns clipping off. */
  maxGradNorm: number;
  /** Fixed divisor of the summed token loss (default: this batch's target token count). */
  tokenNormalizer?: number;
}

/** What one update measured. */
export interface SupervisedStepResult {
  /** Mean cross-entropy (nats per target token) before the update, whatever the normalizer. */
  loss: number;
  /** Target tokens trained. */
  tokens: number;
  /** Gradient norm before clipping. */
  gradNorm: number;
}

/** Packs examples into the trainer's batch layout with uniform per-token weights 1 / (tokenNormalizer ?? token count). */
export function packSupervised(model: Gpt, examples: readonly SupervisedExample[], tokenNormalizer?: number): PackedBatch {
  if (tokenNormalizer !== undefined && !(tokenNormalizer > 0))
    throw new OpenClawError('invalid_request', `tokenNormalizer must be > 0, got ${tokenNormalizer}`);
  if (examples.length === 0) throw new OpenClawError('invalid_request', 'a supervised batch needs at least one example');
  const samples: TrainSample[] = examples.map((e, i) => {
    if (e.targetIds.length === 0) throw new OpenClawError('data', `example ${i} has no target tokens`);
    const zeros = e.targetIds.map(() => 0);
    const sample = {
      promptIds: [...e.promptIds],
      responseIds: [...e.targetIds],
      rolloutLogprobs: zeros,
      advantages: zeros,
      lossMask: e.targetIds.map(() => 1),
    };
    validateSample(sample, i, model.config.ctx, model.config.vocabSize);
    return sample;
  });
  const batch = packBatch(samples, model.config.vocabSize, false);
  batch.weights.fill(1 / (tokenNormalizer ?? batch.count));
  return batch;
}

function crossEntropy(model: Gpt, batch: PackedBatch): tf.Scalar {
  const { chosen } = trainLogprobs(model, batch, 1);
  return tf.neg(tf.sum(tf.mul(chosen, tf.tensor1d(batch.weights)))) as tf.Scalar;
}

/** Mean cross-entropy of the examples' target tokens (no update). */
export function supervisedLoss(model: Gpt, examples: readonly SupervisedExample[]): number {
  const batch = packSupervised(model, examples);
  const loss = tf.tidy(() => crossEntropy(model, batch));
  try {
    return loss.dataSync()[0];
  } finally {
    loss.dispose();
  }
}

/** One AdamW update of the cross-entropy of `examples`, with global-norm gradient clipping. */
export function supervisedStep(
  model: Gpt,
  optimizer: AdamW,
  examples: readonly SupervisedExample[],
  opts: SupervisedStepOptions,
): SupervisedStepResult {
  const batch = packSupervised(model, examples, opts.tokenNormalizer);
  const variables = model.variables();
  const nameOf = new Map(Object.entries(model.params).flatMap(([name, p]) => (p instanceof tf.Variable ? [[p.name, name] as const] : [])));
  const { value, grads } = tf.variableGrads(() => crossEntropy(model, batch), variables);
  // Reported as a plain token mean whatever the normalizer, so logs stay comparable.
  const loss = (value.dataSync()[0] * (opts.tokenNormalizer ?? batch.count)) / batch.count;
  value.dispose();
  const named: Record<string, tf.Tensor> = {};
  for (const [varName, g] of Object.entries(grads)) named[nameOf.get(varName) ?? varName] = g;
  const normTensor = tf.tidy(() => tf.sqrt(tf.addN(Object.values(named).map((g) => tf.sum(tf.square(g))))));
  const gradNorm = normTensor.dataSync()[0];
  normTensor.dispose();
  const scale = opts.maxGradNorm > 0 && gradNorm > opts.maxGradNorm ? opts.maxGradNorm / (gradNorm + 1e-6) : 1;
  const applied = scale === 1 ? named : tf.tidy(() => Object.fromEntries(Object.entries(named).map(([k, g]) => [k, tf.mul(g, scale)])));
  optimizer.apply(model.params, applied, opts.lr, opts.weightDecay);
  tf.dispose(Object.values(grads));
  if (applied !== named) tf.dispose(Object.values(applied));
  return { loss, tokens: batch.count, gradNorm };
}

/** Learning-rate schedule: linear warm-up to `peak`, then cosine decay to `peak · minRatio`. */
export function cosineLr(step: number, totalSteps: number, opts: { peak: number; warmupSteps: number; minRatio: number }): number {
  const { peak, warmupSteps, minRatio } = opts;
  if (step < warmupSteps) return (peak * (step + 1)) / warmupSteps;
  const progress = Math.min(1, (step - warmupSteps) / Math.max(1, totalSteps - warmupSteps));
  return peak * (minRatio + (1 - minRatio) * 0.5 * (1 + Math.cos(Math.PI * progress)));
}
