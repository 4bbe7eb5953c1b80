import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SampleStore } from '../samples/index.ts';
import { makeSample } from '../../test/support/sample-fixtures.ts';
import { tempDir } from '../../test/support/temp.ts';
import { StepFailure, phase, settleFailedStep } from './step-failure.ts';

function leased() {
  const store = SampleStore.open(join(tempDir('ocrl-step-failure-'), 'samples.sqlite'));
  store.addSample(makeSample('f', 1, { policyVersion: 0 }));
  store.addSample(makeSample('f', 2, { policyVersion: 0 }));
  return { store, lease: store.leaseBatch(2) };
}

test('a phase returns its value, or fails once with what becomes of the batch (the first phase to fail names it)', async () => {
  assert.equal(await phase('release', () => 3), 3);
  const cause = new Error('x');
  const outer = await phase('keep', () => phase('mark_trained', () => Promise.reject(cause))).catch((e: unknown) => e);
  assert.ok(outer instanceof StepFailure);
  assert.equal(outer.batch, 'mark_trained');
  assert.equal(outer.error, cause);
});

test('a failed step settles its lease as its failure says and gives back the error as thrown', async () => {
  for (const [batch, ready, trained] of [
    ['release', 2, 0],
    ['mark_trained', 0, 2],
    ['keep', 0, 0],
  ] as const) {
    const { store, lease } = leased();
    const cause = new Error(batch);
    const err = await phase(batch, () => Promise.reject(cause)).catch((e: unknown) => e);
    assert.equal(settleFailedStep(store, lease, err, 1), cause);
    assert.deepEqual([store.countReady(), store.counts().trained], [ready, trained], batch);
  }
  const { store, lease } = leased();
  const plain = new Error('named by no phase');
  assert.equal(settleFailedStep(store, lease, plain, 1), plain);
  assert.equal(store.countReady(), 2, 'an error no phase named returns the batch to ready');
});
