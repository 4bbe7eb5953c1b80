import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldAdvantages } from './fold.ts';
import { ppoBatchLoss, type PpoSample } from './loss.ts';
import { ppoTokenLoss } from './ppo.ts';
import { sampleMeanWeights } from './reduce.ts';
import { Rng } from './rng.ts';

const rng = (seed: number) => {
  const r = new Rng(seed);
  return () => r.uniform();
};

function randomBatch(r: () => number): PpoSample[] {
  const B = 1 + Math.floor(r() * 8);
  return Array.from({ length: B }, () => {
    const n = 1 + Math.floor(r() * 40);
    const old = Array.from({ length: n }, () => -r() * 5);
    // log-ratios in ±0.7: many ratios fall outside [0.8, 1.28], many inside
    const fresh = old.map((o) => o + (r() - 0.5) * 1.4);
    const adv = Array.from({ length: n }, () => (r() - 0.5) * 4);
    // some samples fully masked (dropped turns), most partly
    const allOff = r() < 0.15;
    const mask = Array.from({ length: n }, () => (allOff ? 0 : r() < 0.8 ? 1 : 0));
    return { newLogprobs: fresh, oldLogprobs: old, advantages: adv, lossMask: mask };
  });
}

/** What a summing server computes: Σ over every token of every datum, no mask, no mean. */
function serverSum(samples: PpoSample[], folded: Float64Array[]): { sum: number; clipped: number; inside: number } {
  let sum = 0;
  let clipped = 0;
  let inside = 0;
  samples.forEach((s, i) => {
    const terms = ppoTokenLoss(s.newLogprobs, s.oldLogprobs, folded[i], 0.2, 0.28);
    for (let t = 0; t < terms.losses.length; t++) {
      sum += terms.losses[t];
      if (s.lossMask[t] > 0) {
        if (terms.ratios[t] < 0.8 || terms.ratios[t] > 1.28) clipped++;
        else inside++;
      }
    }
  });
  return { sum, clipped, inside };
}

for (const seed of [7, 11]) {
  test(`folded advantages: the server's sum equals ppoBatchLoss pg_loss (the sample mean), 200 random batches, seed ${seed}`, () => {
    const r = rng(seed);
    let clipped = 0;
    let inside = 0;
    for (let k = 0; k < 200; k++) {
      const batch = randomBatch(r);
      const folded = foldAdvantages(
        batch.map((s) => s.advantages),
        batch.map((s) => s.lossMask),
      );
      const server = serverSum(batch, folded);
      const ours = ppoBatchLoss(batch, { clipRatio: 0.2, clipRatioHigh: 0.28 }).pg_loss;
      assert.ok(Math.abs(server.sum - ours) <= 1e-6, `batch ${k}: server sum ${server.sum} vs pg_loss ${ours}`);
      clipped += server.clipped;
      inside += server.inside;
    }
    // the parity covers both branches of the clip
    assert.ok(clipped > 100 && inside > 100, `clipped ${clipped}, inside ${inside}`);
  });
}

test('folded weights: 1/(n_i·B) on masked tokens, 0 elsewhere; fully masked samples do not count in B', () => {
  const ones = [
    [1, 1, 1],
    [1, 1, 1, 1],
    [1, 1],
  ];
  const masks = [
    [1, 1, 0],
    [1, 0, 0, 0],
    [0, 0],
  ];
  const w = foldAdvantages(ones, masks);
  assert.deepEqual(Array.from(w[0]), [1 / 4, 1 / 4, 0]);
  assert.deepEqual(Array.from(w[1]), [1 / 2, 0, 0, 0]);
  assert.deepEqual(Array.from(w[2]), [0, 0]);
  assert.deepEqual(
    w.map((x) => Array.from(x)),
    sampleMeanWeights(masks).map((x) => Array.from(x)),
  );
});

test('foldAdvantages zeroes unmasked tokens and names misaligned arrays', () => {
  const out = foldAdvantages([[2, 5]], [[1, 0]]);
  assert.deepEqual(Array.from(out[0]), [2, 0]);
  assert.throws(() => foldAdvantages([[1, 2, 3]], [[1, 1]]), /advantages has 3 tokens but lossMask has 2/);
});
