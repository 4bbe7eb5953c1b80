import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdoutDrop, holdoutMetric } from './holdout.ts';

test('holdout_reward_logprob: mean of reward × mean answer log-prob; zero-reward samples skipped', () => {
  const r = holdoutMetric('holdout_reward_logprob', [
    { reward: 1, teacherLogprobs: null, logprobs: [-1, -3] }, // +1 · −2
    { reward: -1, teacherLogprobs: null, logprobs: [-4] }, // −1 · −4
    { reward: 0, teacherLogprobs: null, logprobs: [-9] },
  ]);
  assert.deepEqual(r, { value: 1, samples: 2 });
});

test('holdout_teacher_gap: mean |teacher − student| over tokens of samples with teacher scores', () => {
  const r = holdoutMetric('holdout_teacher_gap', [
    { reward: 0, teacherLogprobs: [-1, -2], logprobs: [-2, -2] },
    { reward: 1, teacherLogprobs: null, logprobs: [-5] },
    { reward: 0, teacherLogprobs: [-0.5], logprobs: [-2.5] },
  ]);
  assert.deepEqual(r, { value: 1, samples: 2 });
  assert.deepEqual(holdoutMetric('holdout_teacher_gap', []), { value: undefined, samples: 0 });
});

test('holdoutDrop is positive when the candidate is worse, whichever way the metric points', () => {
  assert.equal(holdoutDrop('holdout_reward_logprob', -1, -1.5), 0.5);
  assert.equal(holdoutDrop('holdout_teacher_gap', 1, 1.25), 0.25);
  assert.equal(holdoutDrop('holdout_teacher_gap', 1, 0.5), -0.5);
});
