// Folding our reduction into the advantages. Servers such as Tinker's learner SUM the per-token
// PPO loss over every token of every datum; our loss (docs/design.md §2) is the sample mean. The
// PPO term is linear in A_t for a fixed ratio (−min(ρ·cA, clip(ρ)·cA) = c·(−min(ρA, clip(ρ)A))
// for c > 0), so multiplying each advantage by its token's weight in the sample mean
// (sampleMeanWeights: 1/(n_i·B) on the n_i masked tokens of the B samples that have any) makes
// the server's sum equal our pg_loss, clipped or not. Unmasked tokens get advantage 0, so they
// add nothing to the sum.

import { assertSameLength } from './check.ts';
import { sampleMeanWeights } from './reduce.ts';

/** Advantages scaled so that a summing server's PPO loss equals ppoBatchLoss's pg_loss. */
export function foldAdvantages(advantages: readonly ArrayLike<number>[], masks: readonly ArrayLike<number>[]): Float64Array[] {
  const weights = sampleMeanWeights(masks);
  return advantages.map((a, i) => {
    assertSameLength('foldAdvantages', 'advantages', a, 'lossMask', masks[i]);
    const out = new Float64Array(a.length);
    for (let t = 0; t < a.length; t++) out[t] = weights[i][t] === 0 ? 0 : a[t] * weights[i][t];
    return out;
  });
}
