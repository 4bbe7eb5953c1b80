// The KL penalty to the reference policy, per sampled token: Schulman's k3 estimator
// ("low_var_kl"). With d = logq − logp and tokens sampled from p,
//   k3 = exp(d) − d − 1   unbiased for KL(p‖q), low variance, always >= 0.
// (The k1 estimate logp − logq is what ppo_kl logs, see ppo.ts.) The clamp bounds are the
// ones the embedded engine's tensor loss imports, so both sides clamp alike.

import { assertSameLength } from './check.ts';
import { LOG_RATIO_BOUND } from './ppo.ts';

/** low_var_kl clamps each token's k3 to ±this, bounding one token's share of the KL loss. */
export const KL_VALUE_BOUND = 10;

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/**
 * k3 per token: with d = logq − logp clamped to ±LOG_RATIO_BOUND (so one wild token cannot
 * overflow to Infinity), exp(d) − d − 1, then clamped to ±KL_VALUE_BOUND.
 */
export function lowVarKl(logp: ArrayLike<number>, logq: ArrayLike<number>): Float64Array {
  assertSameLength('lowVarKl', 'logp', logp, 'logq', logq);
  const out = new Float64Array(logp.length);
  for (let t = 0; t < logp.length; t++) {
    const d = clamp(logq[t] - logp[t], -LOG_RATIO_BOUND, LOG_RATIO_BOUND);
    out[t] = clamp(Math.exp(d) - d - 1, -KL_VALUE_BOUND, KL_VALUE_BOUND);
  }
  return out;
}
