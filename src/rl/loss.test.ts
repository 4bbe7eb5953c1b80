import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenClawError } from '../errors/index.ts';
import { ppoBatchLoss, type PpoSample } from './loss.ts';

const close = (a: number | undefined, b: number, tol = 1e-12) => assert.ok(a !== undefined && Math.abs(a - b) <= tol, `${a} vs ${b}`);
const ln = Math.log;

// S1: ratios 1.5 (A=+1, clipped: −1.28), 0.5 (A=−1, clipped: 0.8), 1.1 (A=2, inside: −2.2)
// S2: ratio 0.5 (A=+1, not clipped: −0.5), then a masked-out token whose log-prob is garbage
function batch(): PpoSample[] {
  return [
    { newLogprobs: [ln(1.5), ln(0.5), ln(1.1)], oldLogprobs: [0, 0, 0], advantages: [1, -1, 2], lossMask: [1, 1, 1] },
    { newLogprobs: [ln(0.5), NaN], oldLogprobs: [0, 0], advantages: [1, 5], lossMask: [1, 0] },
  ];
}

test('sample-mean reduction: per-sample token means, then the mean over samples', () => {
  const out = ppoBatchLoss(batch());
  const s1 = (-1.28 + 0.8 - 2.2) / 3;
  close(out.pg_loss, (s1 - 0.5) / 2);
  close(out.pg_clipfrac, (2 / 3 + 0) / 2);
  close(out.ppo_kl, (-ln(1.5 * 0.5 * 1.1) / 3 + ln(2)) / 2);
  assert.equal(out.kl_loss, 0);
  assert.equal(out.entropy, undefined);
  close(out.loss, out.pg_loss);
});

test('clip ratios come from the config', () => {
  // symmetric ε = ε_high = 0.6: every S1/S2 ratio is inside [0.4, 1.6]
  const out = ppoBatchLoss(batch(), { clipRatio: 0.6, clipRatioHigh: 0.6 });
  close(out.pg_loss, ((-1.5 + 0.5 - 2.2) / 3 - 0.5) / 2);
  assert.equal(out.pg_clipfrac, 0);
});

test('on-policy (ratio 1) the loss is −mean(A), with no clipping and zero ppo_kl', () => {
  const lp = [-0.3, -2.5, -1.1];
  const out = ppoBatchLoss([{ newLogprobs: lp, oldLogprobs: lp, advantages: [1, 1, -2], lossMask: [1, 1, 1] }]);
  close(out.pg_loss, 0);
  assert.equal(out.pg_clipfrac, 0);
  assert.equal(out.ppo_kl, 0);
});

test('kl and entropy terms enter the loss with their coefficients', () => {
  const samples = batch();
  // S1 ref = new − 1 (k3 = e⁻¹ per token); S2 ref = new + 1 (k3 = e − 2) on its masked token
  samples[0].refLogprobs = [ln(1.5) - 1, ln(0.5) - 1, ln(1.1) - 1];
  samples[1].refLogprobs = [ln(0.5) + 1, 0];
  samples[0].entropy = [1, 2, 3];
  samples[1].entropy = [4, NaN];
  const out = ppoBatchLoss(samples, { klCoef: 0.1, entropyCoef: 0.01 });
  close(out.kl_loss, (Math.exp(-1) + Math.E - 2) / 2);
  close(out.entropy, (2 + 4) / 2);
  close(out.loss, out.pg_loss + 0.1 * out.kl_loss - 0.01 * 3);
});

test('an empty batch or an all-masked batch gives zeros, not NaN', () => {
  for (const samples of [[], [{ newLogprobs: [NaN], oldLogprobs: [0], advantages: [1], lossMask: [0] }]]) {
    const out = ppoBatchLoss(samples);
    assert.deepEqual(out, { loss: 0, pg_loss: 0, pg_clipfrac: 0, ppo_kl: 0, kl_loss: 0 });
  }
});

test('inconsistent inputs are data errors', () => {
  const isData = (pattern: RegExp) => (err: unknown) => err instanceof OpenClawError && err.kind === 'data' && pattern.test(err.message);
  const half = batch();
  half[0].refLogprobs = [0, 0, 0];
  assert.throws(() => ppoBatchLoss(half), isData(/1 of 2 samples carry refLogprobs/));
  assert.throws(() => ppoBatchLoss(batch(), { klCoef: 0.1 }), isData(/kl_coef is 0.1/));
  assert.throws(() => ppoBatchLoss(batch(), { entropyCoef: 0.1 }), isData(/entropy_coef/));
  const short = batch();
  short[1].lossMask = [1];
  assert.throws(() => ppoBatchLoss(short), isData(/newLogprobs has 2 tokens but lossMask has 1/));
});
