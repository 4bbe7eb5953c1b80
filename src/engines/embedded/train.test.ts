import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '@tensorflow/tfjs';
import { EmbeddedEngine } from './engine.ts';
import type { LossConfig, TrainOptions, TrainSample } from '../types.ts';

const cfg = { vocabSize: 48, dModel: 24, nLayer: 2, nHead: 2, ctx: 40 };
const prompt = [1, 2, 3, 4, 5];
const noRegLoss: LossConfig = { clipRatio: 0.2, clipRatioHigh: 0.28, klCoef: 0, entropyCoef: 0, distillTopKCoef: 0 };

function options(over: Partial<TrainOptions> = {}): TrainOptions {
  return { loss: noRegLoss, lr: 1e-2, epochs: 1, minibatches: 1, maxGradNorm: 1, weightDecay: 0, temperature: 1, ...over };
}

async function rollout(engine: EmbeddedEngine, temperature: number, seed: number): Promise<TrainSample> {
  const out = await engine.generate({ promptIds: prompt, maxTokens: 12, temperature, seed });
  return {
    promptIds: prompt,
    responseIds: out.tokenIds,
    rolloutLogprobs: out.logprobs,
    advantages: out.tokenIds.map(() => 1),
    lossMask: out.tokenIds.map(() => 1),
  };
}

async function responseLogprob(engine: EmbeddedEngine, s: TrainSample, temperature = 1): Promise<number[]> {
  return (await engine.score({ promptIds: s.promptIds, responseIds: s.responseIds, temperature })).logprobs;
}

for (const temperature of [1.0, 0.6]) {
  test(`on-policy at T=${temperature}: score and training log-probs equal the rollout's`, async () => {
    const engine = await EmbeddedEngine.create(cfg, { seed: 11 });
    const sample = await rollout(engine, temperature, 5);
    assert.equal(sample.responseIds.length, 12);
    const scored = await responseLogprob(engine, sample, temperature);
    scored.forEach((lp, t) =>
      assert.ok(Math.abs(lp - sample.rolloutLogprobs[t]) < 1e-4, `token ${t}: ${lp} vs ${sample.rolloutLogprobs[t]}`),
    );
    const m = await engine.trainStep([sample], options({ lr: 0, temperature }));
    assert.ok(m.train_rollout_logprob_abs_diff < 1e-4, `abs diff ${m.train_rollout_logprob_abs_diff}`);
    assert.ok(Math.abs(m.ppo_kl) < 1e-4, `ppo_kl ${m.ppo_kl}`);
    assert.equal(m.pg_clipfrac, 0);
    // With A = 1 on every token and ratio 1, the loss is −1.
    assert.ok(Math.abs(m.pg_loss + 1) < 1e-4, `pg_loss ${m.pg_loss}`);
    await engine.close();
  });
}

for (const sign of [1, -1]) {
  test(`a step with ${sign > 0 ? 'positive' : 'negative'} advantage ${sign > 0 ? 'raises' : 'lowers'} the response log-prob`, async () => {
    const engine = await EmbeddedEngine.create(cfg, { seed: 12 });
    const sample = await rollout(engine, 1, 6);
    sample.advantages = sample.advantages.map(() => sign);
    const before = (await responseLogprob(engine, sample)).reduce((a, b) => a + b, 0);
    await engine.trainStep([sample], options());
    await engine.publish();
    const after = (await responseLogprob(engine, sample)).reduce((a, b) => a + b, 0);
    assert.ok(sign * (after - before) > 0.05, `sum of log-probs went ${before} → ${after}`);
    await engine.close();
  });
}

// What the clip guarantees: a token whose ratio is already beyond the bound on the side its
// advantage pushes gets exactly zero gradient, so even a huge lr cannot move it further. (A token
// starting inside the band can overshoot in one step; PPO only stops it on later updates.)
for (const [advantage, logRatio, clipped, lr] of [
  [1, 1, true, 1], // ρ = e > 1+ε_high, A > 0: clipped
  [-1, -1, true, 1], // ρ = 1/e < 1−ε, A < 0: clipped
  [1, -1, false, 1e-2], // ρ = 1/e, A > 0: unclipped, pulled up
] as const) {
  test(`clip: A=${advantage}, log ρ=${logRatio} is ${clipped ? 'frozen' : 'still trained'} (lr=${lr})`, async () => {
    const engine = await EmbeddedEngine.create(cfg, { seed: 13 });
    const sample = await rollout(engine, 1, 7);
    sample.rolloutLogprobs = sample.rolloutLogprobs.map((lp) => lp - logRatio);
    sample.advantages = sample.advantages.map(() => advantage);
    const before = await responseLogprob(engine, sample);
    const m = await engine.trainStep([sample], options({ lr, maxGradNorm: 0 }));
    await engine.publish();
    const after = await responseLogprob(engine, sample);
    if (clipped) {
      // A sum of twelve float32 weights of 1/12: 1 up to rounding.
      assert.ok(Math.abs(m.pg_clipfrac - 1) < 1e-6, `pg_clipfrac ${m.pg_clipfrac}`);
      assert.equal(m.grad_norm, 0);
      assert.deepEqual(after, before);
    } else {
      assert.equal(m.pg_clipfrac, 0);
      assert.ok(m.grad_norm > 0, `grad norm ${m.grad_norm}`);
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      assert.ok(sum(after) > sum(before), `sum of log-probs went ${sum(before)} → ${sum(after)}`);
    }
    await engine.close();
  });
}

test('top-K distillation moves the student toward the teacher distribution', async () => {
  const engine = await EmbeddedEngine.create(cfg, { seed: 14 });
  const sample = await rollout(engine, 1, 8);
  // Teacher: all mass on token 7 at every position (K = 1, tail ≈ 0).
  sample.teacherTopK = sample.responseIds.map(() => ({ ids: [7], logprobs: [Math.log(0.999)] }));
  sample.advantages = sample.advantages.map(() => 0);
  const lp7 = async () =>
    (await engine.score({ promptIds: prompt, responseIds: sample.responseIds, temperature: 1, topK: cfg.vocabSize })).topK ?? [];
  const prob7 = (tops: Awaited<ReturnType<typeof lp7>>) => tops.map((k) => Math.exp(Number(k.logprobs[Array.from(k.ids).indexOf(7)])));
  const before = prob7(await lp7());
  const m = await engine.trainStep([sample], options({ loss: { ...noRegLoss, distillTopKCoef: 1 }, lr: 3e-2, epochs: 3 }));
  assert.ok(m.distill_loss > 0, `distill loss ${m.distill_loss}`);
  await engine.publish();
  const after = prob7(await lp7());
  after.forEach((p, t) => assert.ok(p > before[t], `position ${t}: p(7) ${before[t]} → ${p}`));
  await engine.close();
});

test('KL to the reference is 0 before training and positive after the policy moved', async () => {
  const engine = await EmbeddedEngine.create(cfg, { seed: 15 });
  const sample = await rollout(engine, 1, 9);
  const withKl = options({ loss: { ...noRegLoss, klCoef: 0.1 }, lr: 5e-2 });
  const first = await engine.trainStep([sample], withKl);
  const second = await engine.trainStep([sample], withKl);
  assert.ok(first.kl_loss < 1e-3, `first-step kl ${first.kl_loss}`);
  assert.ok(second.kl_loss > 1e-4, `second-step kl ${second.kl_loss}`);
  await engine.close();
});

test('epochs × minibatches updates, masks, and no tensor leak across steps', async () => {
  const engine = await EmbeddedEngine.create(cfg, { seed: 16 });
  const samples = [await rollout(engine, 1, 1), await rollout(engine, 1, 2), await rollout(engine, 1, 3)];
  samples[1].lossMask = samples[1].lossMask.map((_, t) => (t < 4 ? 1 : 0));
  samples[2].lossMask = samples[2].lossMask.map(() => 0);
  const opts = options({ epochs: 2, minibatches: 2, loss: { ...noRegLoss, klCoef: 0.05 } });
  const m1 = await engine.trainStep(samples, opts);
  assert.equal(m1.updates, 4);
  assert.equal(m1.tokens, 12 + 4);
  assert.equal(engine.optimizerStep, 4);
  const cycle = async () => {
    await engine.trainStep(samples, opts);
    await engine.publish();
    await engine.generate({ promptIds: prompt, maxTokens: 4, temperature: 1, seed: 1 });
    await engine.score({ promptIds: prompt, responseIds: [1, 2], temperature: 1, topK: 3 });
  };
  // The first cycle fills per-length mask caches; after that the count must stay flat.
  await cycle();
  const tensors = tf.memory().numTensors;
  await cycle();
  await cycle();
  assert.equal(tf.memory().numTensors, tensors);
  const none = await engine.trainStep([samples[2]], opts);
  assert.equal(none.tokens, 0);
  assert.equal(none.updates, 0);
  await engine.close();
});

test('misaligned samples are rejected with the field named', async () => {
  const engine = await EmbeddedEngine.create(cfg, { seed: 17 });
  const bad: TrainSample = { promptIds: prompt, responseIds: [1, 2], rolloutLogprobs: [-1], advantages: [1, 1], lossMask: [1, 1] };
  await assert.rejects(engine.trainStep([bad], options()), /rolloutLogprobs has 1 entries for 2 response tokens/);
  await engine.close();
});
