import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenClawError } from '../errors/index.ts';
import { LOG_RATIO_BOUND, approxKlPerToken, ppoTokenLoss } from './ppo.ts';

const EPS = 0.2;
const EPS_HIGH = 0.28;
const close = (a: number, b: number, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);

/** One token with old log-prob 0 and ratio ρ. */
function oneToken(ratio: number, advantage: number, eps = EPS, epsHigh = EPS_HIGH) {
  const terms = ppoTokenLoss([Math.log(ratio)], [0], [advantage], eps, epsHigh);
  return { loss: terms.losses[0], clipped: terms.clipped[0], ratio: terms.ratios[0] };
}

test('inside the clip band the loss is −ρ·A and nothing is clipped', () => {
  const pos = oneToken(1.1, 2);
  close(pos.loss, -2.2);
  close(pos.ratio, 1.1);
  assert.equal(pos.clipped, 0);
  const neg = oneToken(0.9, -1);
  close(neg.loss, 0.9);
  assert.equal(neg.clipped, 0);
});

test('ρ above 1+ε_high with A > 0: the clipped branch is active', () => {
  const r = oneToken(1.5, 1);
  close(r.loss, -1.28);
  assert.equal(r.clipped, 1);
});

test('ρ above 1+ε_high with A < 0: the unclipped product stays (not clipped)', () => {
  const r = oneToken(1.5, -1);
  close(r.loss, 1.5);
  assert.equal(r.clipped, 0);
});

test('ρ below 1−ε with A > 0: the unclipped product stays (not clipped)', () => {
  const r = oneToken(0.5, 1);
  close(r.loss, -0.5);
  assert.equal(r.clipped, 0);
});

test('ρ below 1−ε with A < 0: the clipped branch is active', () => {
  const r = oneToken(0.5, -1);
  close(r.loss, 0.8);
  assert.equal(r.clipped, 1);
});

test('the clip is asymmetric: ε_high bounds the top, ε the bottom', () => {
  // 1.25 is outside a symmetric ±0.2 band but inside [0.8, 1.28]
  const inside = oneToken(1.25, 1);
  close(inside.loss, -1.25);
  assert.equal(inside.clipped, 0);
  assert.equal(oneToken(1.25, 1, 0.2, 0.2).clipped, 1);
  close(oneToken(1.25, 1, 0.2, 0.2).loss, -1.2);
  // 0.78 is below 1−ε = 0.8
  const below = oneToken(0.78, -1);
  close(below.loss, 0.8);
  assert.equal(below.clipped, 1);
});

test('a zero advantage gives loss 0 even for a diverged ratio, never NaN', () => {
  const terms = ppoTokenLoss([1000, -1000], [0, 0], [0, 0]);
  assert.deepEqual(
    Array.from(terms.losses).map((x) => Math.abs(x)),
    [0, 0],
  );
  assert.deepEqual(Array.from(terms.clipped), [0, 0]);
  close(terms.ratios[0], Math.exp(LOG_RATIO_BOUND), 1);
});

test('ppoTokenLoss rejects misaligned arrays and a negative clip', () => {
  const isData = (err: unknown) => err instanceof OpenClawError && err.kind === 'data' && /has 2 tokens.*has 3/.test(err.message);
  assert.throws(() => ppoTokenLoss([0, 0], [0, 0, 0], [1, 1]), isData);
  assert.throws(
    () => ppoTokenLoss([0], [0], [1], -0.1, 0.28),
    (err) => err instanceof OpenClawError && err.kind === 'config',
  );
});

test('approxKlPerToken is old − new per token', () => {
  assert.deepEqual(Array.from(approxKlPerToken([-1, -2, -3], [-1.5, -2, -2])), [-0.5, 0, 1]);
  assert.throws(() => approxKlPerToken([0], []), /approxKlPerToken: newLogprobs has 1 tokens but oldLogprobs has 0/);
});
