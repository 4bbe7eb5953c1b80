// The PPO step's loss and metrics over a batch, as plain numbers: the definition that the
// embedded engine's tensor loss is checked against (src/engines/embedded/train-parity.test.ts:
// same random batches, same values, same gradient with respect to the log-probs). Per-token
// terms come from ppo.ts and kl.ts; one reduction, the sample mean (mean over the masked tokens
// of each sample, then over samples), turns each of them into a batch number:
//   loss = pg_loss + kl_coef·kl_loss − entropy_coef·entropy
// The metrics pg_clipfrac and ppo_kl use that same reduction, so they weigh tokens as the loss
// does: pg_clipfrac is the share of the loss's weight whose gradient the clip switched off, and
// a one-token sample moves ppo_kl as much as it moves the update. (A plain token mean would let
// long responses dominate the metrics while short ones dominate the update.)

import { OpenClawError } from '../errors/index.ts';
import { assertSameLength } from './check.ts';
import { lowVarKl } from './kl.ts';
import { approxKlPerToken, DEFAULT_CLIP_RATIO, DEFAULT_CLIP_RATIO_HIGH, ppoTokenLoss } from './ppo.ts';
import { sampleMean } from './reduce.ts';

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
}

/** Batch loss and its parts, under the metric names of docs/design.md §4. */
export interface PpoBatchLoss {
  /** The total that is differentiated: pg_loss + kl_coef·kl_loss − entropy_coef·entropy. */
  loss: number;
  pg_loss: number;
  /** Sample-mean share of masked tokens whose clip was active (see ppo.ts). */
  pg_clipfrac: number;
  /** Sample-mean of logπ_old − logπ_θ (the k1 estimate of KL(old‖new)). */
  ppo_kl: number;
  /** Sample-mean low_var_kl to the reference; 0 when no reference log-probs were given. */
  kl_loss: number;
  /** Sample-mean per-token entropy; absent when the samples carry no entropies. */
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

  const pg_loss = sampleMean(losses, masks);
  const kl_loss = hasRef
    ? sampleMean(
        samples.map((s) => lowVarKl(s.newLogprobs, s.refLogprobs!)),
        masks,
      )
    : 0;
  const entropy = hasEntropy
    ? sampleMean(
        samples.map((s) => s.entropy!),
        masks,
      )
    : undefined;
  const result: PpoBatchLoss = {
    loss: pg_loss + klCoef * kl_loss - entropyCoef * (entropy ?? 0),
    pg_loss,
    pg_clipfrac: sampleMean(clipped, masks),
    ppo_kl: sampleMean(kls, masks),
    kl_loss,
  };
  if (entropy !== undefined) result.entropy = entropy;
  return result;
}
