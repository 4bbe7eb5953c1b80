// The 0.975 quantile of Student's t: the per-version evaluation's 95% intervals
// (evaluation/stats.ts) and the regression gate's one-sided 97.5% bounds (paired.ts).

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
