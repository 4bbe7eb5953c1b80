// What the trainer logs about a batch before it trains on it (docs/design.md §4 metric names). The
// staleness bound itself (samples more than max_staleness versions old are not trained on) is
// applied where batches are taken, in the sample store's query (samples/store.ts leaseBatch).

import { OpenClawError } from '../errors/index.ts';
import { assertSameLength } from './check.ts';
import { isMasked, tokenMean } from './reduce.ts';

/** The fields of a sample that batch statistics read. */
export interface StatsSample {
  /** Per-token advantages, one per response token. */
  advantages: ArrayLike<number>;
  /** Sample-level 0/1 (as in `Sample`) or per-token mask (as in `TrainSample`). */
  lossMask: number | ArrayLike<number>;
  reward: number;
  /** Policy version that generated the response. */
  policyVersion: number;
  /** Rollout log-probs; with `trainLogprobs` they give train_rollout_logprob_abs_diff. */
  rolloutLogprobs?: ArrayLike<number>;
  /** Log-probs recomputed at training time for the same tokens. */
  trainLogprobs?: ArrayLike<number>;
}

/** Per-step batch statistics under the metric names of docs/design.md §4. */
export interface BatchStats {
  /** Mean advantage over masked tokens. */
  advantage_mean: number;
  /** Population std (divide by N) of the advantage over masked tokens. */
  advantage_std: number;
  /** Mean reward over all samples of the batch, trained or not. */
  reward_mean: number;
  /** Share of samples with at least one masked token (loss_mask 1). */
  effective_sample_rate: number;
  /** Mean of currentVersion − policyVersion over all samples. */
  staleness_mean: number;
  /** Mean number of response tokens per sample. */
  response_length_mean: number;
  /** Mean |train − rollout| log-prob over masked tokens; absent when no sample carries both. */
  train_rollout_logprob_abs_diff?: number;
}

function tokenMask(sample: StatsSample): ArrayLike<number> {
  if (typeof sample.lossMask !== 'number') {
    assertSameLength('batchStats', 'advantages', sample.advantages, 'lossMask', sample.lossMask);
    return sample.lossMask;
  }
  return new Float64Array(sample.advantages.length).fill(sample.lossMask > 0 ? 1 : 0);
}

function staleness(policyVersion: number, currentVersion: number): number {
  if (policyVersion > currentVersion) {
    throw new OpenClawError(
      'data',
      `sample policy version ${policyVersion} is newer than the current version ${currentVersion}; ` +
        'versions must only grow (was a checkpoint restored without its version?)',
    );
  }
  return currentVersion - policyVersion;
}

function hasMaskedToken(mask: ArrayLike<number>): boolean {
  for (let t = 0; t < mask.length; t++) if (isMasked(mask, t)) return true;
  return false;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

function absDiff(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  assertSameLength('batchStats', 'trainLogprobs', a, 'rolloutLogprobs', b);
  const out = new Float64Array(a.length);
  for (let t = 0; t < a.length; t++) out[t] = Math.abs(a[t] - b[t]);
  return out;
}

/** Statistics of one training batch; an empty batch gives zeros. */
export function batchStats(samples: readonly StatsSample[], currentVersion: number): BatchStats {
  const masks = samples.map(tokenMask);
  const advantages = samples.map((s) => s.advantages);
  const advantage_mean = tokenMean(advantages, masks);
  const squaredDeviations = advantages.map((a) => Float64Array.from(a, (x) => (x - advantage_mean) ** 2));
  const effective = masks.filter(hasMaskedToken).length;
  const stats: BatchStats = {
    advantage_mean,
    advantage_std: Math.sqrt(tokenMean(squaredDeviations, masks)),
    reward_mean: mean(samples.map((s) => s.reward)),
    effective_sample_rate: samples.length === 0 ? 0 : effective / samples.length,
    staleness_mean: mean(samples.map((s) => staleness(s.policyVersion, currentVersion))),
    response_length_mean: mean(samples.map((s) => s.advantages.length)),
  };
  const paired = samples
    .map((s, i) => ({ s, mask: masks[i] }))
    .filter(({ s }) => s.trainLogprobs !== undefined && s.rolloutLogprobs !== undefined);
  if (paired.length > 0) {
    stats.train_rollout_logprob_abs_diff = tokenMean(
      paired.map(({ s }) => absDiff(s.trainLogprobs!, s.rolloutLogprobs!)),
      paired.map(({ mask }) => mask),
    );
  }
  return stats;
}
