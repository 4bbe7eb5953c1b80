// PPO clipped surrogate with an asymmetric clip (docs/design.md §2), per response token:
//   ρ_t = exp(logπ_θ − logπ_old)
//   L_t = −min(ρ_t·A_t, clip(ρ_t, 1−ε, 1+ε_high)·A_t)
// A token is "clipped" when the clipped branch is the strictly smaller of the two products, i.e.
// clip(ρ_t)·A_t < ρ_t·A_t. That happens exactly when A_t > 0 and ρ_t > 1+ε_high, or A_t < 0 and
// ρ_t < 1−ε: the loss is then flat in θ and the token gives no gradient. A ratio outside the band
// on the other side (say ρ > 1+ε_high with A < 0) is NOT clipped: min keeps the unclipped,
// more pessimistic product, which still pulls the policy back. pg_clipfrac reduces these flags
// with the loss's own weights (loss.ts).

import { assertNonNegative, assertSameLength } from './check.ts';

/** ε: lower clip, ρ is not pushed below 1−ε for negative advantages. */
export const DEFAULT_CLIP_RATIO = 0.2;

/** ε_high: upper clip, ρ is not pushed above 1+ε_high for positive advantages. */
export const DEFAULT_CLIP_RATIO_HIGH = 0.28;

/**
 * Log-ratios (PPO's ρ and low_var_kl's d) are clamped to ±this before exp so a diverged token
 * gives a large finite value, not Infinity (Infinity·0 would be NaN for a zero advantage).
 * Inside the clip band it never binds.
 */
export const LOG_RATIO_BOUND = 20;

/** Per-token PPO terms: the loss L_t, the ratio ρ_t and whether the clip was active. */
export interface PpoTokenTerms {
  losses: Float64Array;
  ratios: Float64Array;
  /** 1 where the clipped branch was the strictly smaller product (see the file header). */
  clipped: Uint8Array;
}

/** The PPO clipped loss of every token, with ratios and clip flags. */
export function ppoTokenLoss(
  newLogprobs: ArrayLike<number>,
  oldLogprobs: ArrayLike<number>,
  advantages: ArrayLike<number>,
  eps: number = DEFAULT_CLIP_RATIO,
  epsHigh: number = DEFAULT_CLIP_RATIO_HIGH,
): PpoTokenTerms {
  assertSameLength('ppoTokenLoss', 'newLogprobs', newLogprobs, 'oldLogprobs', oldLogprobs);
  assertSameLength('ppoTokenLoss', 'newLogprobs', newLogprobs, 'advantages', advantages);
  assertNonNegative('ppoTokenLoss', 'clip ratio ε', eps);
  assertNonNegative('ppoTokenLoss', 'clip ratio ε_high', epsHigh);
  const n = newLogprobs.length;
  const losses = new Float64Array(n);
  const ratios = new Float64Array(n);
  const clipped = new Uint8Array(n);
  for (let t = 0; t < n; t++) {
    const logRatio = Math.min(LOG_RATIO_BOUND, Math.max(-LOG_RATIO_BOUND, newLogprobs[t] - oldLogprobs[t]));
    const ratio = Math.exp(logRatio);
    const clippedRatio = Math.min(1 + epsHigh, Math.max(1 - eps, ratio));
    const unclippedObjective = ratio * advantages[t];
    const clippedObjective = clippedRatio * advantages[t];
    ratios[t] = ratio;
    losses[t] = -Math.min(unclippedObjective, clippedObjective);
    clipped[t] = clippedObjective < unclippedObjective ? 1 : 0;
  }
  return { losses, ratios, clipped };
}

/** Per-token k1 estimate of KL(old‖new) on the sampled tokens: logπ_old − logπ_θ. */
export function approxKlPerToken(newLogprobs: ArrayLike<number>, oldLogprobs: ArrayLike<number>): Float64Array {
  assertSameLength('approxKlPerToken', 'newLogprobs', newLogprobs, 'oldLogprobs', oldLogprobs);
  const out = new Float64Array(newLogprobs.length);
  for (let t = 0; t < out.length; t++) out[t] = oldLogprobs[t] - newLogprobs[t];
  return out;
}
