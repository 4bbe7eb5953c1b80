// rl: the RL math of DESIGN.md §2 as pure functions, with no I/O.
// Inputs are per-response-token arrays (number[] or typed arrays: log-probs, rewards, masks);
// outputs are Float64Arrays of per-token terms or plain numbers under the metric names of §4.
// Covers advantages for the three modes, the asymmetric-clip PPO loss, KL estimators, entropy,
// masked reductions, batch statistics, the staleness bound, and folding a reduction into the
// advantages for servers that sum the loss (fold.ts). The embedded engine's tensor loss
// is tested against `ppoBatchLoss` here.

export {
  RL_MODES,
  combineAdvantages,
  computeAdvantages,
  grpoAdvantages,
  normalizeRewards,
  opdAdvantages,
  type AdvantageConfig,
  type AdvantageSample,
  type CombineInput,
  type RlMode,
} from './advantages.ts';
export { entropyFromLogprobs, logSoftmax } from './entropy.ts';
export { LOW_VAR_KL_LOG_RATIO_BOUND, LOW_VAR_KL_VALUE_BOUND, klK1, klK2, lowVarKl } from './kl.ts';
export { ppoBatchLoss, type PpoBatchLoss, type PpoLossConfig, type PpoSample } from './loss.ts';
export {
  DEFAULT_CLIP_RATIO,
  DEFAULT_CLIP_RATIO_HIGH,
  PPO_LOG_RATIO_BOUND,
  approxKl,
  approxKlPerToken,
  ppoTokenLoss,
  type PpoTokenTerms,
} from './ppo.ts';
export { isMasked, maskedSum, reduce, sampleMean, tokenMean, type Reduction, type Rows } from './reduce.ts';
export { batchStats, stalenessFilter, type BatchStats, type StatsSample } from './stats.ts';
export { foldAdvantages, reductionWeights } from './fold.ts';
