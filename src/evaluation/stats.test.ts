import { test } from 'node:test';
import assert from 'node:assert/strict';
import { meanWithInterval, tQuantile975, wilson } from './stats.ts';

const close = (a: number | undefined, b: number, eps = 1e-9) => assert.ok(a !== undefined && Math.abs(a - b) <= eps, `${a} ≉ ${b}`);

test('t quantiles: the table up to 30 degrees of freedom, Cornish–Fisher beyond (scipy values)', () => {
  close(tQuantile975(1), 12.706204736);
  close(tQuantile975(4), 2.776445105);
  close(tQuantile975(30), 2.042272456);
  close(tQuantile975(31), 2.039513446396408, 1e-7);
  close(tQuantile975(60), 2.0002978220142604, 1e-8);
  close(tQuantile975(1000), 1.9623390808264083, 1e-12);
  assert.throws(() => tQuantile975(0), RangeError);
});

test('mean interval: Student t on (value, count) pairs, clipped to the reward range', () => {
  // rewards +1 ×5, 0 ×3, −1 ×2 (scipy: mean ± t.ppf(0.975, 9)·s/√10)
  const m = meanWithInterval([
    { value: 1, n: 5 },
    { value: 0, n: 3 },
    { value: -1, n: 2 },
  ]);
  assert.equal(m.n, 10);
  close(m.mean!, 0.3);
  close(m.std!, 0.8232726023485646);
  close(m.ci95!.low, -0.2889337415864865);
  close(m.ci95!.high, 0.8889337415864864);
  // −1, −1, +1, 0, 0: the t interval reaches below −1 and is clipped there.
  const low = meanWithInterval([
    { value: -1, n: 2 },
    { value: 1, n: 1 },
    { value: 0, n: 2 },
  ]);
  close(low.mean!, -0.2);
  assert.equal(low.ci95!.low, -1);
  close(low.ci95!.high, 0.8388506336835677);
  assert.deepEqual(meanWithInterval([{ value: 1, n: 1 }]), { n: 1, mean: 1, std: null, ci95: null });
  assert.deepEqual(meanWithInterval([]), { n: 0, mean: null, std: null, ci95: null });
  assert.deepEqual(meanWithInterval([{ value: 1, n: 4 }]).ci95, { low: 1, high: 1 });
});

test('Wilson interval: textbook values, inside [0, 1], not empty at 0/n or n/n', () => {
  const r = wilson(2, 10);
  assert.equal(r.rate, 0.2);
  close(r.ci95!.low, 0.05668215145437519);
  close(r.ci95!.high, 0.5098375284633583);
  const none = wilson(0, 10);
  assert.equal(none.ci95!.low, 0);
  close(none.ci95!.high, 0.2775327998628892);
  const all = wilson(10, 10);
  close(all.ci95!.low, 0.7224672001371107);
  close(all.ci95!.high, 1);
  assert.deepEqual(wilson(0, 0), { count: 0, n: 0, rate: null, ci95: null });
  assert.throws(() => wilson(3, 2), RangeError);
});
