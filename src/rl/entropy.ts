// Entropy of the policy's next-token distribution at one position, from a full row over the
// vocabulary. Used as a logged metric (and an optional bonus term) of the PPO step.

/**
 * log_softmax of a row, computed stably (max subtracted first); with `temperature` T the row is
 * divided by T first, the same convention as rollout and training log-probs (docs/design.md §2).
 */
export function logSoftmax(row: ArrayLike<number>, temperature = 1): Float64Array {
  const out = new Float64Array(row.length);
  let max = -Infinity;
  for (let i = 0; i < row.length; i++) max = Math.max(max, row[i] / temperature);
  let sumExp = 0;
  for (let i = 0; i < row.length; i++) sumExp += Math.exp(row[i] / temperature - max);
  const logZ = max + Math.log(sumExp);
  for (let i = 0; i < row.length; i++) out[i] = row[i] / temperature - logZ;
  return out;
}

/**
 * Entropy −Σ p·log p (nats) of one row of log-probs or raw logits: the row is renormalised with
 * log_softmax first, which leaves true log-probs unchanged. −Infinity entries (banned tokens)
 * contribute 0 rather than 0·∞ = NaN.
 */
export function entropyFromLogprobs(row: ArrayLike<number>): number {
  if (row.length === 0) return 0;
  const logp = logSoftmax(row);
  let h = 0;
  for (let i = 0; i < logp.length; i++) {
    if (logp[i] === -Infinity) continue;
    h -= Math.exp(logp[i]) * logp[i];
  }
  return h;
}
