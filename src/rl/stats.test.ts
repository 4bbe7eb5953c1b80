import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenClawError } from '../errors/index.ts';
import { batchStats, type StatsSample } from './stats.ts';

const close = (a: number | undefined, b: number, tol = 1e-12) => assert.ok(a !== undefined && Math.abs(a - b) <= tol, `${a} vs ${b}`);

function batch(): StatsSample[] {
  return [
    { advantages: [1, 1, 1], lossMask: 1, reward: 1, policyVersion: 5 },
    { advantages: [-1, -1], lossMask: 0, reward: 0, policyVersion: 3 },
    {
      advantages: [2, 0, 4, 9],
      lossMask: [1, 1, 1, 0],
      reward: -1,
      policyVersion: 4,
      trainLogprobs: [-1, -2, -3, 0],
      rolloutLogprobs: [-1.5, -2, -2, -100],
    },
  ];
}

test('batch statistics over masked tokens and over samples', () => {
  const s = batchStats(batch(), 5);
  // masked advantages: 1,1,1,2,0,4 → mean 1.5, squared deviations 0.25·4 + 2.25 + 6.25 = 9.5
  close(s.advantage_mean, 1.5);
  close(s.advantage_std, Math.sqrt(9.5 / 6));
  close(s.reward_mean, 0);
  close(s.effective_sample_rate, 2 / 3);
  close(s.staleness_mean, (0 + 2 + 1) / 3);
  close(s.response_length_mean, (3 + 2 + 4) / 3);
  // |train − rollout| on the three masked tokens: 0.5, 0, 1
  close(s.train_rollout_logprob_abs_diff, 0.5);
});

test('train_rollout_logprob_abs_diff is absent when no sample has both log-probs', () => {
  const samples = batch();
  delete samples[2].trainLogprobs;
  assert.equal('train_rollout_logprob_abs_diff' in batchStats(samples, 5), false);
});

test('an empty batch gives zeros, not NaN', () => {
  assert.deepEqual(batchStats([], 0), {
    advantage_mean: 0,
    advantage_std: 0,
    reward_mean: 0,
    effective_sample_rate: 0,
    staleness_mean: 0,
    response_length_mean: 0,
  });
});

test('a sample from a future version is a data error', () => {
  assert.throws(
    () => batchStats(batch(), 4),
    (err) => err instanceof OpenClawError && err.kind === 'data' && /version 5 is newer than the current version 4/.test(err.message),
  );
});
