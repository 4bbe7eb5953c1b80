// Interval estimates for the per-version evaluation (docs/evaluation.md), as pure functions of counts:
// a Student-t interval for a mean and a Wilson score interval for a rate, both at 95%.

import { Z_975, tQuantile975 } from '../rl/index.ts';

export { Z_975, tQuantile975 };

/** A closed interval [low, high]. */
export interface Interval {
  low: number;
  high: number;
}

/** Mean, sample standard deviation and 95% t interval of a set of values given as (value, count) pairs. */
export interface MeanEstimate {
  n: number;
  /** null when n = 0. */
  mean: number | null;
  /** Sample standard deviation (n − 1 in the denominator); null when n < 2. */
  std: number | null;
  /** mean ± t(0.975, n−1)·std/√n, clipped to `bounds`; null when n < 2. */
  ci95: Interval | null;
}

/**
 * The mean of weighted values with its 95% Student-t interval. Rewards are bounded, so the
 * interval is clipped to `bounds` (a t interval on a handful of ±1 values can reach past them).
 * With every value equal the interval has width 0: the t interval cannot say more from so little,
 * which is why the rates carry Wilson intervals.
 */
export function meanWithInterval(
  values: ReadonlyArray<{ value: number; n: number }>,
  bounds: Interval = { low: -1, high: 1 },
): MeanEstimate {
  let n = 0;
  let sum = 0;
  for (const v of values) {
    n += v.n;
    sum += v.value * v.n;
  }
  if (n === 0) return { n: 0, mean: null, std: null, ci95: null };
  const mean = sum / n;
  if (n < 2) return { n, mean, std: null, ci95: null };
  let squares = 0;
  for (const v of values) squares += v.n * (v.value - mean) ** 2; // two-pass: no cancellation
  const std = Math.sqrt(squares / (n - 1));
  const half = (tQuantile975(n - 1) * std) / Math.sqrt(n);
  return { n, mean, std, ci95: { low: Math.max(bounds.low, mean - half), high: Math.min(bounds.high, mean + half) } };
}

/** A rate k/n with its 95% Wilson score interval. */
export interface RateEstimate {
  count: number;
  n: number;
  /** null when n = 0. */
  rate: number | null;
  ci95: Interval | null;
}

/**
 * k successes out of n with the Wilson score interval at 95%: unlike the normal approximation it
 * stays inside [0, 1] and does not collapse to width 0 at k = 0 or k = n.
 */
export function wilson(count: number, n: number): RateEstimate {
  if (!Number.isInteger(count) || !Number.isInteger(n) || count < 0 || n < count) {
    throw new RangeError(`wilson needs integers 0 ≤ count ≤ n, got ${count}/${n}`);
  }
  if (n === 0) return { count, n, rate: null, ci95: null };
  const p = count / n;
  const z2 = Z_975 * Z_975;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (Z_975 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { count, n, rate: p, ci95: { low: Math.max(0, center - half), high: Math.min(1, center + half) } };
}
