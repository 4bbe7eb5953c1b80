// rl: the RL math of docs/design.md §2 as pure functions, with no I/O — the one definition of the
// training signal. Inputs are per-response-token arrays (number[] or typed arrays: log-probs,
// rewards, masks); outputs are Float64Arrays of per-token terms or plain numbers under the metric
// names of §4.
//   advantages.ts  per-token advantages from a mode's terms (the trainer calls computeAdvantages;
//                  which terms each mode uses is its row in methods/modes.ts)
//   loss.ts        ppoBatchLoss: the PPO loss and its metrics over a batch, built from
//                  ppo.ts (clipped surrogate), kl.ts (low_var_kl) and reduce.ts (the sample mean)
//   stats.ts       batch statistics the trainer logs
//   fold.ts        the sample mean folded into the advantages, for servers that sum the loss (Tinker)
//   collapse.ts    the gate's probe check: serving vs candidate answers to the same probes
//   holdout.ts     the gate's teacher-forced held-out metrics; paired.ts its paired decision with
//                  confidence bounds; replay.ts the replay evaluation's sampled ones
// The embedded engine's tensor loss imports the constants below and is checked against
// ppoBatchLoss by src/engines/embedded/train-parity.test.ts.

export {
  computeAdvantages,
  normalizeRewards,
  type AdvantageConfig,
  type AdvantageSample,
  type AdvantageTerms,
  type TermUse,
} from './advantages.ts';
export { entropyFromLogprobs } from './entropy.ts';
export { KL_VALUE_BOUND, lowVarKl } from './kl.ts';
export { ppoBatchLoss, type PpoBatchLoss, type PpoLossConfig, type PpoSample } from './loss.ts';
export { DEFAULT_CLIP_RATIO, DEFAULT_CLIP_RATIO_HIGH, LOG_RATIO_BOUND, ppoTokenLoss } from './ppo.ts';
export { sampleMean, sampleMeanWeights, tokenMean } from './reduce.ts';
export { batchStats, type BatchStats, type StatsSample } from './stats.ts';
export { foldAdvantages } from './fold.ts';
export { Z_975, tQuantile975 } from './t-quantile.ts';
export {
  compareLikelihood,
  compareTeacherGap,
  directionEstimate,
  shiftEstimate,
  surrogateGain,
  type AnchoredScore,
  type DirectionEstimate,
  type PairedScore,
  type PairedVerdict,
  type ShiftEstimate,
  type TrainedScore,
} from './paired.ts';
export { probeCollapse, type CollapseLimits, type ProbeSummary } from './collapse.ts';
export {
  HOLDOUT_METRICS,
  holdoutDrop,
  holdoutMetric,
  holdoutPoint,
  type HoldoutMetric,
  type HoldoutScore,
  type HoldoutValue,
} from './holdout.ts';
export {
  majorityYes,
  pooledLogprobGap,
  probeKl,
  rateOf,
  replayOpdAdvantage,
  replaySeed,
  type PairedLogprobs,
  type TokenMean,
} from './replay.ts';
export { Rng, deriveSeed } from './rng.ts';
export { turnKey, turnOfKey } from './turn-key.ts';
