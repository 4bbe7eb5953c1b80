import { test } from 'node:test';
import assert from 'node:assert/strict';
import { majorityYes, pooledLogprobGap, probeKl, rateOf, replayOpdAdvantage, replaySeed } from './replay.ts';

test('replay_opd_advantage pools the tokens of all answers: teacher minus student', () => {
  const r = replayOpdAdvantage([
    { teacher: [-1, -1], student: [-0.5, -0.5] }, // −0.5 per token
    { teacher: [-0.2, -0.2, -0.2, -0.2], student: [-0.2, -0.2, -0.2, -0.2] }, // 0 per token
  ]);
  assert.equal(r.samples, 2);
  assert.equal(r.tokens, 6);
  assert.ok(Math.abs(r.value! - -1 / 6) < 1e-12, 'a long answer weighs more than a short one');
  // The teacher liking the new answer more than the student does gives a positive advantage.
  assert.ok(replayOpdAdvantage([{ teacher: [-0.1], student: [-2] }]).value! > 0);
});

test('answers without tokens or with mismatched lengths are left out; none usable gives no value', () => {
  const r = pooledLogprobGap([
    { a: [], b: [] },
    { a: [-1, -2], b: [-1] },
    { a: [-3], b: [-1] },
  ]);
  assert.deepEqual(r, { value: -2, samples: 1, tokens: 1 });
  assert.deepEqual(pooledLogprobGap([]), { value: undefined, samples: 0, tokens: 0 });
});

test('probe_kl is the sampled estimate of KL(new ‖ serving): 0 for the same weights', () => {
  assert.equal(probeKl([{ candidate: [-0.3, -1.2], serving: [-0.3, -1.2] }]).value, 0);
  assert.ok(Math.abs(probeKl([{ candidate: [-0.1, -0.1], serving: [-0.6, -1.1] }]).value! - 0.75) < 1e-12);
});

test('the judge majority: ties and failed votes decide nothing; the rate counts decided answers only', () => {
  assert.equal(majorityYes([true, true, false]), true);
  assert.equal(majorityYes([false, null, null]), false);
  assert.equal(majorityYes([true, false]), null);
  assert.equal(majorityYes([null, null]), null);
  assert.deepEqual(rateOf([true, null, false, true]), { value: 2 / 3, samples: 3 });
  assert.deepEqual(rateOf([null]), { value: undefined, samples: 0 });
});

test('the sampling seed is fixed per key and differs between keys', () => {
  assert.equal(replaySeed('s:1'), replaySeed('s:1'));
  assert.notEqual(replaySeed('s:1'), replaySeed('s:2'));
  assert.ok(Number.isInteger(replaySeed('x')) && replaySeed('x') >= 0);
});
