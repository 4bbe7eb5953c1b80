import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KL_VALUE_BOUND, lowVarKl } from './kl.ts';

const close = (a: number, b: number, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);

// log r = logp − logq at three points: +1, −1, 0
const logp = [-1, -2, -0.7];
const logq = [-2, -1, -0.7];

test('k3 is exp(ref − new) − (ref − new) − 1', () => {
  const k3 = lowVarKl(logp, logq);
  close(k3[0], Math.exp(-1)); // d = −1: e⁻¹ + 1 − 1
  close(k3[1], Math.E - 2); // d = +1: e − 1 − 1
  assert.equal(k3[2], 0);
  close(lowVarKl([0], [2])[0], Math.exp(2) - 3); // 4.389…, below the value bound
});

test('k3 is clamped to ±10 per token', () => {
  assert.equal(KL_VALUE_BOUND, 10);
  // d = 3: e³ − 4 = 16.09; d = −12: e⁻¹² + 11 = 11.000006
  assert.deepEqual(Array.from(lowVarKl([0, 0], [3, -12])), [10, 10]);
});

test('k3 clamps the log-ratio before exp, so infinite log-probs give the bound, not NaN', () => {
  // logp = −∞ makes d = +∞: unclamped, exp(∞) − ∞ would be NaN
  assert.deepEqual(Array.from(lowVarKl([-Infinity, 0], [0, -1e6])), [10, 10]);
});

test('low_var_kl rejects misaligned arrays', () => {
  assert.throws(() => lowVarKl([0], []), /logp has 1 tokens but logq has 0/);
});
