// Interval estimates for the per-version evaluation (docs/evaluation.md), as pure functions of counts:
// a Student-t interval for a mean and a Wilson score interval for a rate, both at 95%.

/** z with Φ(z) = 0.975: the two-sided 95% normal quantile. */
export const Z_975 = 1.959963984540054;

// t quantiles at 0.975 for 1–30 degrees of freedom (scipy.stats.t.ppf(0.975, df), rounded to 1e-9).
// Beyond 30 the Cornish–Fisher expansion below is within 3e-8 of the exact value.
const T_975 = [
  12.706204736, 4.30265273, 3.182446305, 2.776445105, 2.570581836, 2.446911851, 2.364624252, 2.306004135, 2.262157163, 2.228138852,
  2.20098516, 2.17881283, 2.160368656, 2.144786688, 2.131449546, 2.119905299, 2.109815578, 2.10092204, 2.093024054, 2.085963447,
  2.079613845, 2.073873068, 2.06865761, 2.063898562, 2.059538553, 2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456,
];

/** The 0.975 quantile of Student's t with `df` ≥ 1 degrees of freedom. */
export function tQuantile975(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`degrees of freedom must be an integer ≥ 1, got ${df}`);
  if (df <= T_975.length) return T_975[df - 1];
  // Cornish–Fisher expansion of the t quantile around the normal one (Abramowitz & Stegun 26.7.5).
  const z = Z_975;
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  const z9 = z ** 9;
  return (
    z +
    (z3 + z) / (4 * df) +
    (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) +
    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3) +
    (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * df ** 4)
  );
}

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
