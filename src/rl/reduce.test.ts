import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenClawError } from '../errors/index.ts';
import { sampleMean, sampleMeanWeights, tokenMean } from './reduce.ts';

test('tokenMean skips masked-out tokens, even NaN ones', () => {
  assert.equal(tokenMean([1, 2, NaN], [1, 1, 0]), 1.5);
  assert.equal(tokenMean(new Float32Array([4, 8]), new Uint8Array([0, 1])), 8);
});

test('tokenMean over a batch weighs every token the same; sampleMean every sample', () => {
  const values = [[1, 2, 3], [10]];
  const masks = [[1, 1, 1], [1]];
  assert.equal(tokenMean(values, masks), 16 / 4);
  assert.equal(sampleMean(values, masks), (2 + 10) / 2);
});

test('sampleMeanWeights: 1/(n_i·B) on masked tokens, 0 elsewhere and for samples with none', () => {
  const w = sampleMeanWeights([[1, 1, 0, 1], [0, 0], [1]]);
  assert.deepEqual(
    w.map((row) => Array.from(row)),
    [[1 / 6, 1 / 6, 0, 1 / 6], [0, 0], [1 / 2]],
  );
});

test('sampleMean ignores samples without a masked token', () => {
  assert.equal(
    sampleMean(
      [
        [1, 2],
        [100, NaN],
      ],
      [
        [1, 1],
        [0, 0],
      ],
    ),
    1.5,
  );
  assert.equal(sampleMean([[1, 2], []], [[1, 1], []]), 1.5);
});

test('empty or all-zero masks reduce to 0, not NaN', () => {
  assert.equal(tokenMean([], []), 0);
  assert.equal(tokenMean([5, 6], [0, 0]), 0);
  assert.equal(tokenMean([[5], [6]], [[0], [0]]), 0);
  assert.equal(sampleMean([], []), 0);
  assert.equal(sampleMean([[5, NaN]], [[0, 0]]), 0);
});

test('misaligned values and masks are data errors', () => {
  const isData = (err: unknown) => err instanceof OpenClawError && err.kind === 'data';
  assert.throws(() => tokenMean([1, 2], [1]), isData);
  assert.throws(() => sampleMean([[1]], []), isData);
  assert.throws(() => tokenMean([[1], [2]], [[1]]), isData);
});
