// Judge-free numbers of a policy on held-out samples (turns never trained on), from the log-probs
// the policy gives their recorded answers (teacher-forced: no new answers are sampled). The
// regression gate compares a trained version with the serving one on these.
//   holdout_reward_logprob = mean over samples of  r · (1/T) Σ_t log π(a_t | s)   (higher is better:
//     +1 answers more likely, −1 answers less likely)
//   holdout_teacher_gap    = mean over tokens of   |log π_teacher(a_t | s+hint) − log π(a_t | s)|
//     (lower is better: the policy gives the answer what the hinted teacher gives it)

/** One held-out sample with the candidate policy's log-probs of its answer. */
export interface HoldoutScore {
  reward: number;
  /** Hinted-teacher log-probs of the answer tokens (distillation samples), else null. */
  teacherLogprobs: readonly number[] | null;
  /** The candidate's log-probs of the same tokens. */
  logprobs: readonly number[];
}

/** The gate's metrics by name, and which way is better. */
export const HOLDOUT_METRICS = {
  holdout_reward_logprob: { higherIsBetter: true },
  holdout_teacher_gap: { higherIsBetter: false },
} as const;
export type HoldoutMetric = keyof typeof HOLDOUT_METRICS;

/** A metric's value and how many held-out samples it used (undefined value: none usable). */
export interface HoldoutValue {
  value: number | undefined;
  samples: number;
}

/** Computes `metric` over held-out samples; samples the metric cannot use are skipped. */
export function holdoutMetric(metric: HoldoutMetric, scores: readonly HoldoutScore[]): HoldoutValue {
  if (metric === 'holdout_reward_logprob') {
    const used = scores.filter((s) => s.reward !== 0 && s.logprobs.length > 0);
    if (used.length === 0) return { value: undefined, samples: 0 };
    const sum = used.reduce((acc, s) => acc + (s.reward * s.logprobs.reduce((a, b) => a + b, 0)) / s.logprobs.length, 0);
    return { value: sum / used.length, samples: used.length };
  }
  const used = scores.filter((s) => s.teacherLogprobs !== null && s.teacherLogprobs.length === s.logprobs.length && s.logprobs.length > 0);
  if (used.length === 0) return { value: undefined, samples: 0 };
  let gap = 0;
  let tokens = 0;
  for (const s of used) {
    s.logprobs.forEach((lp, t) => {
      gap += Math.abs((s.teacherLogprobs as readonly number[])[t] - lp);
      tokens++;
    });
  }
  return { value: gap / tokens, samples: used.length };
}

/** How much worse `candidate` is than `baseline` (positive = worse), in the metric's units. */
export function holdoutDrop(metric: HoldoutMetric, baseline: number, candidate: number): number {
  return HOLDOUT_METRICS[metric].higherIsBetter ? baseline - candidate : candidate - baseline;
}

/** 32-bit FNV-1a of a string's code points: a stable, cheap hash for reproducible choices. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * FNV-1a of a turn's key (rl/turn-key.ts), as a number in [0, 1): the same turn is always in or
 * out of the held-out share (`point < evaluation.holdout_fraction`), whoever asks (the trainer
 * reserving it, the scoring pipeline deciding whether to keep its hinted teacher prompt).
 */
export function holdoutPoint(turnKey: string): number {
  return fnv1a32(turnKey) / 2 ** 32;
}
