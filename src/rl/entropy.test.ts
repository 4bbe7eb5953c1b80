import { test } from 'node:test';
import assert from 'node:assert/strict';
import { entropyFromLogprobs, logSoftmax } from './entropy.ts';

const close = (a: number, b: number, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);

test('a uniform distribution over 4 tokens has entropy ln 4', () => {
  close(entropyFromLogprobs(new Float32Array(4).fill(Math.log(0.25))), Math.log(4), 1e-7);
  close(entropyFromLogprobs([0, 0, 0, 0]), Math.log(4)); // same row as logits
});

test('log-probs and shifted logits of one distribution give the same entropy', () => {
  // p = [½, ¼, ¼]: H = ½ ln 2 + ½ ln 4 = 1.5 ln 2
  close(entropyFromLogprobs([Math.log(0.5), Math.log(0.25), Math.log(0.25)]), 1.5 * Math.LN2);
  close(entropyFromLogprobs([7 + Math.LN2, 7, 7]), 1.5 * Math.LN2);
});

test('banned tokens (−∞) contribute nothing; an empty row has entropy 0', () => {
  close(entropyFromLogprobs([0, 0, -Infinity]), Math.LN2);
  assert.equal(entropyFromLogprobs([]), 0);
  assert.equal(entropyFromLogprobs([3]), 0);
});

test('logSoftmax divides by the temperature first', () => {
  const lse = Math.log(1 + Math.E);
  const out = logSoftmax([2, 0], 2);
  close(out[0], 1 - lse);
  close(out[1], -lse);
  // huge logits stay finite thanks to the max shift
  const big = logSoftmax([1000, 1000]);
  close(big[0], -Math.LN2);
});
