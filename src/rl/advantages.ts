// Per-token advantages of one response for the three modes (docs/design.md §2):
//   openclaw-rl       A_t = r                                  (GRPO-style broadcast)
//   openclaw-opd      A_t = clip(teacher_t − old_t, ±c)        (on-policy distillation)
//   openclaw-combine  A_t = w_opd·clip(teacher_t − old_t, ±c) + w_rl·r
// `old` is the rollout (behaviour) log-prob stored with the sample; the clip c (`opd_adv_clip`)
// is optional. A sample without teacher log-probs has an OPD term of exactly 0 — never
// "teacher := old", which would turn train/rollout drift into a spurious advantage.

import { OpenClawError } from '../errors/index.ts';
import { assertFinite, assertNonNegative, assertSameLength } from './check.ts';

/** Every valid `--mode` value; the config schema and the CLI's choices read this list. */
export const RL_MODES = ['openclaw-rl', 'openclaw-opd', 'openclaw-combine'] as const;

/** The training modes of `--mode`. */
export type RlMode = (typeof RL_MODES)[number];

/** GRPO advantages: the (possibly normalised) reward broadcast to every response token. */
export function grpoAdvantages(reward: number, length: number): Float64Array {
  if (!Number.isFinite(reward)) throw new OpenClawError('data', `grpoAdvantages: reward is ${reward}; expected a finite number`);
  if (!Number.isInteger(length) || length < 0) {
    throw new OpenClawError('data', `grpoAdvantages: length must be a whole number >= 0, got ${length}`);
  }
  return new Float64Array(length).fill(reward);
}

/**
 * Reward normalisation across a batch: (r − mean) / (std + eps), eps default 1e-6. The std is the
 * population std (divide by N, not N − 1; torch's default `std()` divides by N − 1). When the std
 * is 0 (all rewards equal, or one reward) the rewards are only zero-centred, i.e. all become 0.
 */
export function normalizeRewards(rewards: ArrayLike<number>, opts: { eps?: number } = {}): Float64Array {
  const eps = opts.eps ?? 1e-6;
  assertNonNegative('normalizeRewards', 'eps', eps);
  assertFinite('normalizeRewards', 'rewards', rewards);
  const n = rewards.length;
  const out = new Float64Array(n);
  if (n === 0) return out;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += rewards[i] / n;
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (rewards[i] - mean) ** 2 / n;
  const std = Math.sqrt(variance);
  const scale = std === 0 ? 1 : std + eps;
  for (let i = 0; i < n; i++) out[i] = (rewards[i] - mean) / scale;
  return out;
}

/** OPD advantages: teacher_t − old_t per token, clipped to [−clip, clip] when `clip` is given. */
export function opdAdvantages(
  teacherLogprobs: ArrayLike<number>,
  oldLogprobs: ArrayLike<number>,
  opts: { clip?: number | null } = {},
): Float64Array {
  assertSameLength('opdAdvantages', 'teacherLogprobs', teacherLogprobs, 'oldLogprobs', oldLogprobs);
  assertFinite('opdAdvantages', 'teacherLogprobs', teacherLogprobs);
  assertFinite('opdAdvantages', 'oldLogprobs', oldLogprobs);
  const clip = opts.clip ?? Infinity;
  if (!(clip > 0)) throw new OpenClawError('config', `opdAdvantages: opd_adv_clip must be > 0 when set, got ${clip}`);
  const out = new Float64Array(teacherLogprobs.length);
  for (let t = 0; t < out.length; t++) {
    out[t] = Math.min(clip, Math.max(-clip, teacherLogprobs[t] - oldLogprobs[t]));
  }
  return out;
}

/** Inputs of the combined advantage of one response. */
export interface CombineInput {
  /** Teacher log-probs under the hinted prompt, or null when no hint was accepted (RL-only sample). */
  teacherLogprobs: ArrayLike<number> | null;
  /** Rollout (behaviour) log-probs, one per response token. */
  oldLogprobs: ArrayLike<number>;
  /** PRM score r (0 for an OPD-only sample). */
  reward: number;
  /** Weight of the OPD term, default 1. */
  wOpd?: number;
  /** Weight of the reward term, default 1. */
  wRl?: number;
  /** Per-token clip of teacher − old (`opd_adv_clip`); none when absent. */
  opdClip?: number | null;
}

/** Combined advantages w_opd·(teacher_t − old_t) + w_rl·r; a null teacher gives exactly w_rl·r. */
export function combineAdvantages(input: CombineInput): Float64Array {
  const wOpd = input.wOpd ?? 1;
  const wRl = input.wRl ?? 1;
  const out = grpoAdvantages(wRl * input.reward, input.oldLogprobs.length);
  if (input.teacherLogprobs === null) return out;
  const opd = opdAdvantages(input.teacherLogprobs, input.oldLogprobs, { clip: input.opdClip });
  for (let t = 0; t < out.length; t++) out[t] += wOpd * opd[t];
  return out;
}

/** The fields of a sample that advantages depend on (a `Sample` fits). */
export interface AdvantageSample {
  reward: number;
  rolloutLogprobs: ArrayLike<number>;
  teacherLogprobs: ArrayLike<number> | null;
}

/** Mode settings that shape the advantages. */
export interface AdvantageConfig {
  mode: RlMode;
  /** openclaw-combine: weight of the OPD term, default 1. */
  wOpd?: number;
  /** openclaw-combine: weight of the reward term, default 1. */
  wRl?: number;
  /** openclaw-opd / -combine: per-token clip of teacher − old (`opd_adv_clip`); none when absent. */
  opdAdvClip?: number | null;
}

/** Per-token advantages of one sample under the configured mode. */
export function computeAdvantages(sample: AdvantageSample, config: AdvantageConfig): Float64Array {
  switch (config.mode) {
    case 'openclaw-rl':
      return grpoAdvantages(sample.reward, sample.rolloutLogprobs.length);
    case 'openclaw-opd':
      if (sample.teacherLogprobs === null) {
        throw new OpenClawError(
          'data',
          'computeAdvantages: an openclaw-opd sample needs teacher log-probs, got null; ' +
            'samples without an accepted hint must be dropped before training',
        );
      }
      return opdAdvantages(sample.teacherLogprobs, sample.rolloutLogprobs, { clip: config.opdAdvClip });
    case 'openclaw-combine':
      return combineAdvantages({
        teacherLogprobs: sample.teacherLogprobs,
        oldLogprobs: sample.rolloutLogprobs,
        reward: sample.reward,
        wOpd: config.wOpd,
        wRl: config.wRl,
        opdClip: config.opdAdvClip,
      });
    default:
      throw new OpenClawError(
        'config',
        `computeAdvantages: unknown mode ${JSON.stringify(config.mode)}; use one of ${RL_MODES.join(', ')}`,
      );
  }
}
