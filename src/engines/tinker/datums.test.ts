import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { TrainSample } from '../types.ts';
import { forwardBackwardBody, planForwardBackward, ppoLossFnConfig, toDatum } from './datums.ts';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../test/fixtures/tinker/${name}`, import.meta.url), 'utf8'));

const A: TrainSample = {
  promptIds: [10, 11, 12],
  responseIds: [20, 21],
  rolloutLogprobs: [-0.5, -1.0],
  advantages: [1, 1],
  lossMask: [1, 1],
};
const B: TrainSample = {
  promptIds: [30],
  responseIds: [40, 41, 42],
  rolloutLogprobs: [-0.2, -0.3, -0.4],
  advantages: [-2, -2, -2],
  lossMask: [1, 0, 1],
};
const loss = { clipRatio: 0.2, clipRatioHigh: 0.28 };

test('forward_backward body: alignment shift, zeroed prompt and unmasked positions, thresholds 0.8/1.28 (fixture)', () => {
  const plan = planForwardBackward([A, B], { loss });
  assert.equal(plan.chunks.length, 1);
  assert.equal(plan.tokens, 4);
  const body = forwardBackwardBody('model-1', 3, plan.lossFnConfig, plan.chunks[0].datums);
  assert.deepEqual(JSON.parse(body), fixture('forward-backward.json'));
  assert.deepEqual(
    plan.chunks[0].layouts.map((l) => [l.sample, l.start, l.responseLength, l.masked]),
    [
      [0, 2, 2, [0, 1]],
      [1, 0, 3, [0, 2]],
    ],
  );
});

test('thresholds are 1 − clip_ratio and 1 + clip_ratio_high', () => {
  assert.deepEqual(ppoLossFnConfig({ clipRatio: 0.2, clipRatioHigh: 0.28 }), { clip_low_threshold: 0.8, clip_high_threshold: 1.28 });
  assert.deepEqual(ppoLossFnConfig({ clipRatio: 0.1, clipRatioHigh: 0.1 }), { clip_low_threshold: 0.9, clip_high_threshold: 1.1 });
});

test('chunking: at most maxDatums per call, and the bytes bound; the fold spans the whole batch', () => {
  const samples = [A, B, A, A, B];
  const byCount = planForwardBackward(samples, { loss, maxDatums: 2 });
  assert.deepEqual(
    byCount.chunks.map((c) => c.datums.length),
    [2, 2, 1],
  );
  // B = 5 samples with tokens: sample A (2 masked) gets 1/(2·5) everywhere, in every chunk
  const last = JSON.parse(byCount.chunks[2].datums[0]);
  assert.deepEqual(last.loss_fn_inputs.advantages.data, [-0.2, 0, -0.2]);
  const size = byCount.chunks[0].datums[0].length + 1;
  const byBytes = planForwardBackward(samples, { loss, maxBytes: size * 2 + 10 });
  assert.ok(byBytes.chunks.every((c) => c.bytes <= size * 2 + 10 || c.datums.length === 1));
  assert.ok(byBytes.chunks.length >= 3);
  assert.deepEqual(
    byBytes.chunks.flatMap((c) => c.layouts.map((l) => l.sample)),
    [0, 1, 2, 3, 4],
  );
});

test('a sample with no masked token is left out; bad samples are named', () => {
  const none: TrainSample = { ...A, lossMask: [0, 0] };
  const plan = planForwardBackward([none, B], { loss });
  assert.deepEqual(
    plan.chunks[0].layouts.map((l) => l.sample),
    [1],
  );
  assert.throws(() => toDatum({ ...A, promptIds: [] }, [1, 1]), /empty prompt/);
  assert.throws(() => toDatum({ ...A, rolloutLogprobs: [-1] }, [1, 1]), /rolloutLogprobs has 1 entries for 2 response tokens/);
  assert.throws(() => toDatum({ ...A, rolloutLogprobs: [-1, NaN] }, [1, 1]), /response token 1 is NaN/);
});
