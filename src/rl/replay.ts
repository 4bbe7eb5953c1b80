// Judge-free numbers of a version's NEW answers (sampled, not teacher-forced), from log-probs:
//   replay_opd_advantage = mean over the new answers' tokens of log π_teacher(a_t | s+hint) − log π(a_t | s)
//     on held-out prompts that got a hint: the OPD advantage the trainer would compute for them.
//     Negative while the policy writes answers the hinted teacher finds unlikely; it rises toward 0
//     (or above) as the policy learns what the users' hints asked for. Higher is better.
//   probe_kl = mean over the new answers' tokens of log π_new(a_t | s) − log π_serving(a_t | s)
//     on probe prompts: a sampled (k1) estimate of KL(new ‖ serving), how far a step moved the
//     policy on prompts it is not trained on (drift). Near 0 is calm; it cannot be negative in
//     expectation, a single estimate can.
// Both pool the tokens of all answers (a long answer weighs more than a short one), like
// holdout_teacher_gap, so a version is not judged by a few one-token answers.

import { fnv1a32 } from './holdout.ts';

/** Log-probs of the same answer tokens under two models (`a` first). */
export interface PairedLogprobs {
  a: readonly number[];
  b: readonly number[];
}

/** A pooled token mean, with how many answers and tokens it used (value undefined: none usable). */
export interface TokenMean {
  value: number | undefined;
  samples: number;
  tokens: number;
}

/** Mean over all tokens of a − b; answers with no tokens or with mismatched lengths are left out. */
export function pooledLogprobGap(pairs: readonly PairedLogprobs[]): TokenMean {
  let sum = 0;
  let tokens = 0;
  let samples = 0;
  for (const p of pairs) {
    if (p.a.length === 0 || p.a.length !== p.b.length) continue;
    samples++;
    for (let t = 0; t < p.a.length; t++) sum += p.a[t] - p.b[t];
    tokens += p.a.length;
  }
  return { value: tokens > 0 ? sum / tokens : undefined, samples, tokens };
}

/** replay_opd_advantage: `teacher` and `student` log-probs of each new answer, at one temperature. */
export function replayOpdAdvantage(answers: readonly { teacher: readonly number[]; student: readonly number[] }[]): TokenMean {
  return pooledLogprobGap(answers.map((x) => ({ a: x.teacher, b: x.student })));
}

/** probe_kl: the new version's and the serving version's log-probs of each new probe answer. */
export function probeKl(answers: readonly { candidate: readonly number[]; serving: readonly number[] }[]): TokenMean {
  return pooledLogprobGap(answers.map((x) => ({ a: x.candidate, b: x.serving })));
}

/** The majority of yes/no votes (null votes failed); null on a tie or without any vote. */
export function majorityYes(votes: readonly (boolean | null)[]): boolean | null {
  const yes = votes.filter((v) => v === true).length;
  const no = votes.filter((v) => v === false).length;
  return yes === no ? null : yes > no;
}

/** A share of decided items that were true (undefined: none decided). */
export function rateOf(decided: readonly (boolean | null)[]): { value: number | undefined; samples: number } {
  const known = decided.filter((d): d is boolean => d !== null);
  return { value: known.length > 0 ? known.filter(Boolean).length / known.length : undefined, samples: known.length };
}

/** A fixed sampling seed per held-out turn or probe, so every version answers it with the same draws. */
export function replaySeed(key: string): number {
  return fnv1a32(key) & 0x7fffffff;
}
