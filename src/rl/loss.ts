// The PPO step's loss and metrics over a batch, as plain numbers: the reference that the
// tensor implementation in the embedded engine is tested against. Per-token terms come from
// ppo.ts and kl.ts; one reduction (default: mean over masked tokens of each sample, then over
// samples) turns each into a batch number:
//   loss = pg_loss + kl_coef·kl_loss − entropy_coef·entropy

import { OpenClawError } from '../errors/index.ts';
import { assertSameLength } from './check.ts';
import { lowVarKl } from './kl.ts';
import { approxKlPerToken, DEFAULT_CLIP_RATIO, DEFAULT_CLIP_RATIO_HIGH, ppoTokenLoss } from './ppo.ts';
import { reduce, type Reduction } from './reduce.ts';

/** One sample's per-token inputs to the PPO loss, all aligned one per response token. */
export interface PpoSample {
  /** logπ_θ of the response tokens under the policy being trained. */
  newLogprobs: ArrayLike<number>;
  /** logπ_old: the rollout (behaviour) log-probs, or a recomputed proximal one. */
  oldLogprobs: ArrayLike<number>;
  advantages: ArrayLike<number>;
  /** 1 = the token counts in the loss. */
  lossMask: ArrayLike<number>;
  /** Reference-policy log-probs for the KL term; give them for all samples or for none. */
  refLogprobs?: ArrayLike<number>;
  /** Per-token entropy of the policy (e.g. entropyFromLogprobs of each row); all samples or none. */
  entropy?: ArrayLike<number>;
}

/** Loss settings; field names match `LossConfig` so one can be passed as is. */
export interface PpoLossConfig {
  /** ε, default 0.2. */
  clipRatio?: number;
  /** ε_high, default 0.28. */
  clipRatioHigh?: number;
  /** Coefficient of low_var_kl to the reference policy, default 0. */
  klCoef?: number;
  /** Coefficient of the entropy bonus, default 0. */
  entropyCoef?: number;
  /** Default 'sample-mean' (DESIGN.md §2). */
  reduction?: Reduction;
}

/** Batch loss and its parts, under the metric names of DESIGN.md §4. */
export interface PpoBatchLoss {
  /** The total that is differentiated: pg_loss + kl_coef·kl_loss − entropy_coef·entropy. */
  loss: number;
  pg_loss: number;
  /** Share of masked tokens whose clip was active (see ppo.ts). */
  pg_clipfrac: number;
  /** Reduced logπ_old − logπ_θ. */
  ppo_kl: number;
  /** Reduced low_var_kl to the reference; 0 when no reference log-probs were given. */
  kl_loss: number;
  /** Reduced per-token entropy; absent when the samples carry no entropies. */
  entropy?: number;
}

function allOrNone(field: 'refLogprobs' | 'entropy', samples: readonly PpoSample[]): boolean {
  const present = samples.filter((s) => s[field] !== undefined).length;
  if (present !== 0 && present !== samples.length) {
    throw new OpenClawError('data', `ppoBatchLoss: ${present} of ${samples.length} samples carry ${field}; give it for all or none`);
  }
  return present > 0;
}

/** Loss and metrics of one PPO step over a batch of samples. */
export function ppoBatchLoss(samples: readonly PpoSample[], cfg: PpoLossConfig = {}): PpoBatchLoss {
  const eps = cfg.clipRatio ?? DEFAULT_CLIP_RATIO;
  const epsHigh = cfg.clipRatioHigh ?? DEFAULT_CLIP_RATIO_HIGH;
  const klCoef = cfg.klCoef ?? 0;
  const entropyCoef = cfg.entropyCoef ?? 0;
  const reduction = cfg.reduction ?? 'sample-mean';
  const hasRef = allOrNone('refLogprobs', samples);
  const hasEntropy = allOrNone('entropy', samples);
  if (klCoef !== 0 && !hasRef && samples.length > 0) {
    throw new OpenClawError('data', `ppoBatchLoss: kl_coef is ${klCoef} but the samples carry no reference log-probs`);
  }
  if (entropyCoef !== 0 && !hasEntropy && samples.length > 0) {
    throw new OpenClawError('data', `ppoBatchLoss: entropy_coef is ${entropyCoef} but the samples carry no entropies`);
  }

  const masks = samples.map((s) => s.lossMask);
  const losses: Float64Array[] = [];
  const clipped: Uint8Array[] = [];
  const kls: Float64Array[] = [];
  for (const s of samples) {
    assertSameLength('ppoBatchLoss', 'newLogprobs', s.newLogprobs, 'lossMask', s.lossMask);
    const terms = ppoTokenLoss(s.newLogprobs, s.oldLogprobs, s.advantages, eps, epsHigh);
    losses.push(terms.losses);
    clipped.push(terms.clipped);
    kls.push(approxKlPerToken(s.newLogprobs, s.oldLogprobs));
  }

  const pg_loss = reduce(reduction, losses, masks);
  const kl_loss = hasRef ? reduce(reduction, samples.map((s) => lowVarKl(s.newLogprobs, s.refLogprobs!)), masks) : 0;
  const entropy = hasEntropy ? reduce(reduction, samples.map((s) => s.entropy!), masks) : undefined;
  const result: PpoBatchLoss = {
    loss: pg_loss + klCoef * kl_loss - entropyCoef * (entropy ?? 0),
    pg_loss,
    pg_clipfrac: reduce(reduction, clipped, masks),
    ppo_kl: reduce(reduction, kls, masks),
    kl_loss,
  };
  if (entropy !== undefined) result.entropy = entropy;
  return result;
}
