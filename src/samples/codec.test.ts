import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenClawError } from '../errors/index.ts';
import { decodeFloat64, decodeInt32, decodeTopK, encodeFloat64, encodeInt32, encodeTopK } from './codec.ts';

test('token ids round-trip as 4 bytes each, including the int32 extremes', () => {
  const ids = [0, 151644, -1, 2147483647, -2147483648];
  const blob = encodeInt32(ids, 'ids');
  assert.equal(blob.byteLength, 20);
  assert.deepEqual(decodeInt32(blob), ids);
  // little-endian on every machine: 151644 = 0x0002505C
  assert.deepEqual([...blob.subarray(4, 8)], [0x5c, 0x50, 0x02, 0x00]);
});

test('non-integer or out-of-range token ids are refused with the offending index', () => {
  assert.throws(
    () => encodeInt32([1, 2.5], 'responseIds'),
    (e: unknown) => e instanceof OpenClawError && /responseIds\[1\] = 2.5/.test(e.message),
  );
  assert.throws(() => encodeInt32([2 ** 31], 'promptIds'), /promptIds\[0\] = 2147483648/);
});

test('log-probs round-trip bit for bit as Float64 (a Float32 store would change them)', () => {
  const lps = [0.1, -1e-300, -0, -Infinity, Number.NaN, -2.302585092994046, -0.6931471805599453];
  const back = decodeFloat64(encodeFloat64(lps, 'lp'));
  assert.equal(back.length, lps.length);
  lps.forEach((v, i) => assert.ok(Object.is(back[i], v), `index ${i}: ${back[i]} !== ${v}`));
  assert.notEqual(Math.fround(-2.302585092994046), -2.302585092994046); // why Float64
});

test('top-K lists with a different K per position round-trip in one compact blob', () => {
  const topk = [
    { ids: [5, 6], logprobs: [-0.1, -2.5] },
    { ids: [9], logprobs: [-0.01] },
    { ids: [], logprobs: [] },
  ];
  const blob = encodeTopK(topk, 'teacherTopK');
  // header 4·(1+3) + ids 3·4 + log-probs 3·8
  assert.equal(blob.byteLength, 16 + 12 + 24);
  assert.deepEqual(decodeTopK(blob), topk);
  assert.deepEqual(decodeTopK(encodeTopK([], 'x')), []);
});

test('a top-K position with more ids than log-probs is refused', () => {
  assert.throws(() => encodeTopK([{ ids: [1, 2], logprobs: [-1] }], 'teacherTopK'), /teacherTopK\[0\] has 2 ids but 1 log-probs/);
});
