import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineAdvantages, grpoAdvantages, normalizeRewards, opdAdvantages } from './advantages.ts';
import { assertClose, isKind } from '../../test/support/assert.ts';

test('grpo broadcasts the reward to every response token', () => {
  assert.deepEqual(Array.from(grpoAdvantages(-1, 3)), [-1, -1, -1]);
  assert.equal(grpoAdvantages(1, 0).length, 0);
  assert.throws(() => grpoAdvantages(1, -2), isKind('data'));
  assert.throws(() => grpoAdvantages(NaN, 2), isKind('data'));
});

test('normalizeRewards uses the population std', () => {
  // mean 0.5, variance (2.25 + 3·0.25)/4 = 0.75, std √3/2.
  assertClose(normalizeRewards([2, 0, 0, 0], { eps: 0 }), [Math.sqrt(3), -1 / Math.sqrt(3), -1 / Math.sqrt(3), -1 / Math.sqrt(3)]);
  // default eps 1e-6 is added to the std
  assertClose(normalizeRewards([1, -1, 1, -1]), [1 / (1 + 1e-6), -1 / (1 + 1e-6), 1 / (1 + 1e-6), -1 / (1 + 1e-6)]);
});

test('normalizeRewards with zero std only zero-centres, never NaN', () => {
  assert.deepEqual(Array.from(normalizeRewards([1, 1, 1], { eps: 0 })), [0, 0, 0]);
  assert.deepEqual(Array.from(normalizeRewards([-1])), [0]);
  assert.equal(normalizeRewards([]).length, 0);
});

test('opd advantage is teacher − old, optionally clipped per token', () => {
  const teacher = [-1, -0.5, -3];
  const old = new Float32Array([-2, -0.5, -1]);
  assertClose(opdAdvantages(teacher, old), [1, 0, -2]);
  assertClose(opdAdvantages(teacher, old, { clip: 0.5 }), [0.5, 0, -0.5]);
  assertClose(opdAdvantages(teacher, old, { clip: null }), [1, 0, -2]);
});

test('opd rejects misaligned, non-finite and bad-clip inputs', () => {
  assert.throws(() => opdAdvantages([-1, -2, -3], [-1, -2]), isKind('data', /teacherLogprobs has 3 .*oldLogprobs has 2/));
  assert.throws(() => opdAdvantages([-1, NaN], [-1, -2]), isKind('data', /teacherLogprobs\[1\]/));
  assert.throws(() => opdAdvantages([-1], [-1], { clip: 0 }), isKind('config', /opd_adv_clip/));
});

test('combine weighs both terms', () => {
  // 0.5·[1, −2] + 2·1
  assertClose(combineAdvantages({ teacherLogprobs: [-1, -3], oldLogprobs: [-2, -1], reward: 1, wOpd: 0.5, wRl: 2 }), [2.5, 1]);
  // defaults w = 1, OPD term clipped to ±1.5, r = 0 (OPD-only sample)
  assertClose(combineAdvantages({ teacherLogprobs: [-1, -3], oldLogprobs: [-2, -1], reward: 0, opdClip: 1.5 }), [1, -1.5]);
});

test('combine with a null teacher gives exactly w_rl·r, whatever the rollout log-probs', () => {
  const adv = combineAdvantages({ teacherLogprobs: null, oldLogprobs: [-0.3, -7.1, -0.01], reward: -1, wOpd: 1, wRl: 0.7 });
  assert.deepEqual(Array.from(adv), [-0.7, -0.7, -0.7]);
});
