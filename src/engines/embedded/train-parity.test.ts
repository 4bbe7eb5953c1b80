// The engine's tensor loss against its definition, src/rl's ppoBatchLoss: the same random batches
// (some tokens inside the clip band, some clipped, some masked out, a sample with no trained
// token) go through both, with and without the KL term. Values must agree to float32 precision,
// and the engine's autodiff gradient with respect to each trained token's log-prob must equal
// the finite-difference gradient of ppoBatchLoss.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '@tensorflow/tfjs';
import { KL_VALUE_BOUND, Rng, entropyFromLogprobs, ppoBatchLoss, type PpoLossConfig, type PpoSample } from '../../rl/index.ts';
import type { LossConfig, TrainSample } from '../types.ts';
import { lossFromLogprobs, packBatch } from './train.ts';

const VOCAB = 6;
const EPS = 0.2;
const EPS_HIGH = 0.28;
// Log-ratios of the clip band's edges: a finite difference across them would measure a kink.
const KINKS = [Math.log(1 - EPS), Math.log(1 + EPS_HIGH)];
const H = 1e-4;

interface Case {
  samples: PpoSample[];
  /** The log-prob rows behind each token's entropy, [sample][token][vocab]. */
  rows: number[][][];
}

function logSoftmaxRow(logits: number[]): number[] {
  const max = Math.max(...logits);
  const logZ = max + Math.log(logits.reduce((sum, x) => sum + Math.exp(x - max), 0));
  return logits.map((x) => x - logZ);
}

/** A random batch: log-ratios in ±0.7 (clipped and unclipped tokens), advantages in ±2. */
function randomCase(seed: number, withRef: boolean): Case {
  const rng = new Rng(seed);
  const samples: PpoSample[] = [];
  const rows: number[][][] = [];
  const n = 2 + Math.floor(rng.uniform() * 4);
  for (let i = 0; i < n; i++) {
    const len = 1 + Math.floor(rng.uniform() * 7);
    const old: number[] = [];
    const fresh: number[] = [];
    const ref: number[] = [];
    const adv: number[] = [];
    const mask: number[] = [];
    const sampleRows: number[][] = [];
    for (let t = 0; t < len; t++) {
      let logRatio = (rng.uniform() * 2 - 1) * 0.7;
      while (KINKS.some((k) => Math.abs(logRatio - k) < 10 * H)) logRatio += 20 * H;
      old.push(-0.05 - rng.uniform() * 4);
      fresh.push(old[t] + logRatio);
      // d = ref − new in ±3: k3 = exp(d) − d − 1 passes its clamp of 10 near d = 2.53 (kept apart).
      let d = (rng.uniform() * 2 - 1) * 3;
      while (Math.abs(Math.exp(d) - d - 1 - KL_VALUE_BOUND) < 0.05) d -= 0.01;
      ref.push(fresh[t] + d);
      adv.push((rng.uniform() * 2 - 1) * 2);
      // The last sample trains on nothing; elsewhere about one token in five is masked out.
      mask.push(i === n - 1 ? 0 : rng.uniform() < 0.8 ? 1 : 0);
      sampleRows.push(logSoftmaxRow(Array.from({ length: VOCAB }, () => rng.normal())));
    }
    if (i < n - 1 && !mask.includes(1)) mask[0] = 1;
    samples.push({
      newLogprobs: fresh,
      oldLogprobs: old,
      advantages: adv,
      lossMask: mask,
      entropy: sampleRows.map(entropyFromLogprobs),
      ...(withRef ? { refLogprobs: ref } : {}),
    });
    rows.push(sampleRows);
  }
  return { samples, rows };
}

/** The engine's side of a case: what trainStep would pack, and the trained tokens' inputs in row order. */
function engineInputs(c: Case) {
  const trainSamples: TrainSample[] = c.samples.map((s) => ({
    promptIds: [1],
    responseIds: Array.from(s.newLogprobs, (_, t) => t % VOCAB),
    rolloutLogprobs: Array.from(s.oldLogprobs),
    advantages: Array.from(s.advantages),
    lossMask: Array.from(s.lossMask),
  }));
  const active = trainSamples.map((s, i) => ({ s, i })).filter(({ s }) => s.lossMask.some((m) => m > 0));
  const batch = packBatch(
    active.map(({ s }) => s),
    VOCAB,
    false,
  );
  const trained: Array<{ i: number; t: number }> = [];
  for (const { s, i } of active) s.lossMask.forEach((m, t) => m > 0 && trained.push({ i, t }));
  return { batch, trained };
}

function engineLoss(c: Case, cfg: LossConfig) {
  const { batch, trained } = engineInputs(c);
  const chosen = Float32Array.from(trained.map(({ i, t }) => c.samples[i].newLogprobs[t]));
  const ref = c.samples[0].refLogprobs === undefined ? null : Float32Array.from(trained.map(({ i, t }) => c.samples[i].refLogprobs![t]));
  const all = tf.tensor2d(trained.map(({ i, t }) => c.rows[i][t]));
  const x = tf.tensor1d(chosen);
  const values = tf.tidy(() => {
    const terms = lossFromLogprobs(x, all, batch, cfg, ref);
    return Object.fromEntries(
      [['loss', terms.loss], ...Object.entries(terms.metrics)].map(([k, v]) => [k, (v as tf.Scalar).dataSync()[0]]),
    );
  });
  const grad = tf.tidy(() =>
    tf
      .grad((lp: tf.Tensor) => lossFromLogprobs(lp as tf.Tensor1D, all, batch, cfg, ref).loss)(x)
      .dataSync(),
  );
  tf.dispose([all, x]);
  return { values, grad: Array.from(grad), trained };
}

/** ∂ ppoBatchLoss / ∂ newLogprobs[i][t] by central differences. */
function referenceGradient(c: Case, cfg: PpoLossConfig, i: number, t: number): number {
  const at = (delta: number) => {
    const samples = c.samples.map((s, j) => {
      if (j !== i) return s;
      const shifted = Array.from(s.newLogprobs);
      shifted[t] += delta;
      return { ...s, newLogprobs: shifted };
    });
    return ppoBatchLoss(samples, cfg).loss;
  };
  return (at(H) - at(-H)) / (2 * H);
}

const near = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= 2e-5 + 1e-4 * Math.abs(expected), `${what}: engine ${actual}, rl ${expected}`);

for (const withKl of [false, true]) {
  test(`engine loss = rl ppoBatchLoss on random batches ${withKl ? 'with' : 'without'} the KL term: values and d loss / d log-prob`, () => {
    const cfg: LossConfig = { clipRatio: EPS, clipRatioHigh: EPS_HIGH, klCoef: withKl ? 0.3 : 0, entropyCoef: 0.01, distillTopKCoef: 0 };
    let clippedTokens = 0;
    let nonzeroGradients = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const c = randomCase(seed, withKl);
      const ref = ppoBatchLoss(c.samples, cfg);
      const engine = engineLoss(c, cfg);
      for (const key of ['loss', 'pg_loss', 'pg_clipfrac', 'ppo_kl', 'kl_loss', 'entropy'] as const) {
        near(engine.values[key], ref[key] ?? NaN, `seed ${seed} ${key}`);
      }
      if (!withKl) assert.equal(engine.values.kl_loss, 0);
      engine.trained.forEach(({ i, t }, r) => {
        near(engine.grad[r], referenceGradient(c, cfg, i, t), `seed ${seed} gradient of sample ${i} token ${t}`);
        if (Math.abs(engine.grad[r]) > 1e-6) nonzeroGradients += 1;
      });
      clippedTokens += Math.round(ref.pg_clipfrac * 1e6) > 0 ? 1 : 0;
    }
    // The batches exercise both branches of the clip: some have clipped tokens, most gradients flow.
    assert.ok(clippedTokens >= 6, `only ${clippedTokens} of 12 batches had a clipped token`);
    assert.ok(nonzeroGradients > 40, `only ${nonzeroGradients} tokens had a gradient`);
  });
}

test('a clipped token gets no PPO gradient in the engine, as in rl', () => {
  // One sample, two tokens: ρ = 1.5 with A = +1 (clipped) and ρ = 1.1 with A = +1 (inside the band).
  const c: Case = {
    samples: [
      { newLogprobs: [Math.log(1.5) - 1, Math.log(1.1) - 1], oldLogprobs: [-1, -1], advantages: [1, 1], lossMask: [1, 1], entropy: [0, 0] },
    ],
    rows: [[logSoftmaxRow([0, 0, 0, 0, 0, 0]), logSoftmaxRow([0, 0, 0, 0, 0, 0])]],
  };
  const cfg: LossConfig = { clipRatio: EPS, clipRatioHigh: EPS_HIGH, klCoef: 0, entropyCoef: 0, distillTopKCoef: 0 };
  const engine = engineLoss(c, cfg);
  near(engine.values.pg_clipfrac, 0.5, 'pg_clipfrac');
  assert.equal(engine.grad[0], 0);
  // d(−ρ·A/2)/d logπ = −ρ/2 = −0.55
  near(engine.grad[1], -0.55, 'gradient inside the band');
  near(referenceGradient(c, cfg, 0, 1), -0.55, 'rl gradient inside the band');
});
