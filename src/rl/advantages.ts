// Per-token advantages of one response (docs/design.md §2). Every mode's advantage is a sum of up
// to two terms, each taken as is or scaled by its configured weight:
//   reward term    r                                  (GRPO-style broadcast)
//   teacher term   clip(teacher_t − old_t, ±c)        (on-policy distillation)
// so  A_t = w_opd·clip(teacher_t − old_t, ±c) + w_rl·r  in general. Which terms a mode uses and
// how they are weighted is its row of the mode table (methods/modes.ts, `advantage`); this file
// knows no mode names. `old` is the rollout (behaviour) log-prob stored with the sample; the clip c
// (`opd_adv_clip`) is optional. A sample without teacher log-probs has a teacher term of exactly
// 0 — never "teacher := old", which would turn train/rollout drift into a spurious advantage.

import { OpenClawError } from '../errors/index.ts';
import { assertFinite, assertNonNegative, assertSameLength } from './check.ts';

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
  /**
   * The policy's log-probs of the same tokens at the temperature the teacher's come at, when that
   * is not the rollout's (an SGLang/vLLM teacher reports T = 1 whatever T drew the tokens); the
   * teacher term is then teacher_t − student_t, so both sides share one temperature. Absent: old.
   */
  studentLogprobs?: ArrayLike<number> | null;
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
  const opd = opdAdvantages(input.teacherLogprobs, input.studentLogprobs ?? input.oldLogprobs, { clip: input.opdClip });
  for (let t = 0; t < out.length; t++) out[t] += wOpd * opd[t];
  return out;
}

/** The fields of a sample that advantages depend on (a `Sample` fits). */
export interface AdvantageSample {
  reward: number;
  rolloutLogprobs: ArrayLike<number>;
  teacherLogprobs: ArrayLike<number> | null;
  /** See `CombineInput.studentLogprobs`. */
  studentLogprobs?: ArrayLike<number> | null;
}

/** How one term enters the advantage: not at all, as is (weight 1), or scaled by its configured weight. */
export type TermUse = 'off' | 'plain' | 'weighted';

/** The terms of a mode's advantage (one per mode in the mode table). */
export interface AdvantageTerms {
  /** The reward term r; 'weighted' scales it by w_rl. */
  reward: TermUse;
  /** The teacher term clip(teacher_t − old_t, ±c); 'weighted' scales it by w_opd. */
  teacher: TermUse;
  /**
   * True: a trained sample without teacher log-probs is a bug upstream (the mode drops such turns).
   * False: its teacher term is 0.
   */
  teacherRequired: boolean;
}

/** A mode's advantage terms and the training settings that shape them. */
export interface AdvantageConfig {
  terms: AdvantageTerms;
  /** Weight of a 'weighted' teacher term (`training.w_opd`), default 1. */
  wOpd?: number;
  /** Weight of a 'weighted' reward term (`training.w_rl`), default 1. */
  wRl?: number;
  /** Per-token clip of teacher − old (`opd_adv_clip`); none when absent. */
  opdAdvClip?: number | null;
}

/** Per-token advantages of one sample: the terms the config names, each with its weight. */
export function computeAdvantages(sample: AdvantageSample, config: AdvantageConfig): Float64Array {
  const { terms } = config;
  if (terms.teacher !== 'off' && terms.teacherRequired && sample.teacherLogprobs === null) {
    throw new OpenClawError(
      'data',
      'computeAdvantages: this mode trains on teacher log-probs, but the sample has none; ' +
        'samples without an accepted hint must be dropped before training',
    );
  }
  return combineAdvantages({
    teacherLogprobs: terms.teacher === 'off' ? null : sample.teacherLogprobs,
    oldLogprobs: sample.rolloutLogprobs,
    studentLogprobs: sample.studentLogprobs,
    reward: terms.reward === 'off' ? 0 : sample.reward,
    wOpd: weightOf(terms.teacher, config.wOpd),
    wRl: weightOf(terms.reward, config.wRl),
    opdClip: config.opdAdvClip,
  });
}

function weightOf(use: TermUse, configured: number | undefined): number {
  if (use === 'off') return 0;
  return use === 'weighted' ? (configured ?? 1) : 1;
}
