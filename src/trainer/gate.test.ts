import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../config/index.ts';
import { makeSample } from '../../test/support/sample-fixtures.ts';
import type { StoredSample } from '../samples/index.ts';
import { ServingHeldOutScores, oneByOne } from './gate.ts';

const held = (id: number): StoredSample => ({
  ...makeSample('h', id),
  state: 'dropped',
  dropReason: 'holdout',
  leaseId: null,
  leaseCount: 0,
});

test("the serving version's held-out scores are kept: a step scores only answers held out since, and all of them for other weights", async () => {
  const config = parseConfig({ evaluation: { holdout_fraction: 0.2, gate: {} } }, { env: {} });
  const scored: number[][] = [];
  const score = oneByOne(async (r) => {
    scored.push(r.responseIds);
    return { logprobs: r.responseIds.map(() => -1) };
  });
  const cache = new ServingHeldOutScores();
  const [a, b, c] = [held(1), held(2), held(3)];
  await cache.of(config, [a, b], 4, score);
  assert.equal(scored.length, 2);
  // Version 5 passed the gate with these candidate scores and serves now.
  cache.keep(5, [a, b], [[-0.5], [-0.25]]);
  const next = await cache.of(config, [a, b, c], 5, score);
  assert.equal(scored.length, 3, 'only the newly held-out answer is scored');
  assert.deepEqual(next.slice(0, 2), [[-0.5], [-0.25]]);
  await cache.of(config, [a, b, c], 6, score);
  assert.equal(scored.length, 6, 'other weights: every answer scored again');
});
