// KL estimators between the current policy's log-probs `logp` and a reference's `logq`, per
// sampled token (Schulman's k1/k2/k3). With tokens sampled from p they estimate KL(p‖q):
//   k1 = log r                     unbiased, high variance, can be negative
//   k2 = ½ (log r)²                biased, low variance, always >= 0
//   k3 = exp(−log r) + log r − 1   unbiased, low variance, always >= 0 ("low_var_kl")
// where log r = logp − logq. All return one value per token; reduce them with reduce.ts.

import { assertSameLength } from './check.ts';

/** low_var_kl clamps log(q/p) to ±this before exp, so one wild token cannot overflow to Infinity. */
export const LOW_VAR_KL_LOG_RATIO_BOUND = 20;

/** low_var_kl clamps each token's k3 to ±this, bounding one token's share of the KL loss. */
export const LOW_VAR_KL_VALUE_BOUND = 10;

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

function perToken(
  name: string,
  logp: ArrayLike<number>,
  logq: ArrayLike<number>,
  estimator: (logRatio: number) => number,
): Float64Array {
  assertSameLength(name, 'logp', logp, 'logq', logq);
  const out = new Float64Array(logp.length);
  for (let t = 0; t < logp.length; t++) out[t] = estimator(logp[t] - logq[t]);
  return out;
}

/** k1 per token: logp − logq. */
export function klK1(logp: ArrayLike<number>, logq: ArrayLike<number>): Float64Array {
  return perToken('klK1', logp, logq, (logRatio) => logRatio);
}

/** k2 per token: ½ (logp − logq)². */
export function klK2(logp: ArrayLike<number>, logq: ArrayLike<number>): Float64Array {
  return perToken('klK2', logp, logq, (logRatio) => 0.5 * logRatio * logRatio);
}

/**
 * k3 per token ("low_var_kl"): with d = logq − logp clamped to ±LOW_VAR_KL_LOG_RATIO_BOUND,
 * exp(d) − d − 1, then clamped to ±LOW_VAR_KL_VALUE_BOUND.
 */
export function lowVarKl(logp: ArrayLike<number>, logq: ArrayLike<number>): Float64Array {
  return perToken('lowVarKl', logp, logq, (logRatio) => {
    const d = clamp(-logRatio, -LOW_VAR_KL_LOG_RATIO_BOUND, LOW_VAR_KL_LOG_RATIO_BOUND);
    return clamp(Math.exp(d) - d - 1, -LOW_VAR_KL_VALUE_BOUND, LOW_VAR_KL_VALUE_BOUND);
  });
}
