// Folding a reduction into the advantages. Servers such as Tinker's learner SUM the per-token
// PPO loss over every token of every datum; our loss (DESIGN.md §2) is a masked mean. The PPO
// term is linear in A_t for a fixed ratio (−min(ρ·cA, clip(ρ)·cA) = c·(−min(ρA, clip(ρ)A)) for
// c > 0), so multiplying each advantage by its token's weight in the mean makes the server's sum
// equal our reduction, clipped or not:
//   sample-mean: c_it = 1 / (n_i · B)   n_i = masked tokens of sample i, B = samples with n_i > 0
//   token-mean:  c_it = 1 / N           N = masked tokens of the batch
// Unmasked tokens get advantage 0, so they add nothing to the sum.

import { assertSameLength } from './check.ts';
import { isMasked, type Reduction } from './reduce.ts';

/** Per-token weights whose plain sum over a batch equals the named masked reduction. */
export function reductionWeights(masks: readonly ArrayLike<number>[], reduction: Reduction = 'sample-mean'): Float64Array[] {
  const counts = masks.map((m) => {
    let n = 0;
    for (let t = 0; t < m.length; t++) if (isMasked(m, t)) n++;
    return n;
  });
  const total = counts.reduce((a, b) => a + b, 0);
  const withTokens = counts.filter((n) => n > 0).length;
  return masks.map((m, i) => {
    const w = new Float64Array(m.length);
    if (counts[i] === 0) return w;
    const c = reduction === 'token-mean' ? 1 / total : 1 / (counts[i] * withTokens);
    for (let t = 0; t < m.length; t++) if (isMasked(m, t)) w[t] = c;
    return w;
  });
}

/** Advantages scaled so that the server's SUM of the PPO loss equals `reduction` of ours. */
export function foldAdvantages(
  advantages: readonly ArrayLike<number>[],
  masks: readonly ArrayLike<number>[],
  reduction: Reduction = 'sample-mean',
): Float64Array[] {
  const weights = reductionWeights(masks, reduction);
  return advantages.map((a, i) => {
    assertSameLength('foldAdvantages', 'advantages', a, 'lossMask', masks[i]);
    const out = new Float64Array(a.length);
    for (let t = 0; t < a.length; t++) out[t] = weights[i][t] === 0 ? 0 : a[t] * weights[i][t];
    return out;
  });
}
