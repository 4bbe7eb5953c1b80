// The regression gate's paired comparison (docs/evaluation.md "The regression gate"). Each held-out
// answer is scored by the serving weights and by the candidate's, teacher-forced, so every sample
// gives one paired change. For the reward metric it is the change of the answer's mean log-prob:
//   d_i = (1/T) Σ_t log π_cand(a_t | s) − (1/T) Σ_t log π_serv(a_t | s)
// and for the teacher gap the change of its mean |teacher − policy| log-prob gap. A point
// comparison of two means refuses healthy noise and passes real damage alike; here a version is
// refused only when a one-sided 97.5% Student-t bound on the mean change says it is worse:
//   liked answers (reward > 0) less likely by more than max_drop:   mean + t·s/√n < −max_drop
//   any held-out answer less likely by more than max_shift (collapse): mean + t·s/√n < −max_shift
//   (teacher gap) the gap wider by more than max_drop:               mean − t·s/√n >  max_drop
// Disliked answers may become less likely (that is the point of training on them) as long as
// neither bound trips: a collapse makes every answer unlikely, which the second rule catches even
// when nothing was liked, and which Σ reward · log-prob alone would score as progress.
import { tQuantile975 } from './t-quantile.ts';

/** One held-out answer scored by both versions (and the hinted teacher's log-probs, if any). */
export interface PairedScore {
  reward: number;
  serving: readonly number[];
  candidate: readonly number[];
  teacher?: readonly number[] | null;
}

/** The mean paired change of a group of samples and its one-sided 97.5% bounds. */
export interface ShiftEstimate {
  n: number;
  mean: number;
  /** mean − t·s/√n and mean + t·s/√n (equal to the mean when n < 2: no bound from one sample). */
  low: number;
  high: number;
}

/** The gate's decision from paired scores. */
export interface PairedVerdict {
  pass: boolean;
  /** The estimates the decision read, by group. */
  liked: ShiftEstimate | null;
  all: ShiftEstimate | null;
  gap: ShiftEstimate | null;
  reason: string;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The mean of `values` with its one-sided 97.5% bounds (null for no values). */
export function shiftEstimate(values: readonly number[]): ShiftEstimate | null {
  const n = values.length;
  if (n === 0) return null;
  const m = mean(values);
  if (n < 2) return { n, mean: m, low: m, high: m };
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - m) ** 2, 0) / (n - 1));
  const half = (tQuantile975(n - 1) * sd) / Math.sqrt(n);
  return { n, mean: m, low: m - half, high: m + half };
}

const usable = (s: PairedScore) => s.serving.length > 0 && s.serving.length === s.candidate.length;
const logprobShift = (s: PairedScore) => mean(s.candidate) - mean(s.serving);
const fmt = (e: ShiftEstimate) => `${e.mean.toFixed(4)} (bound ${e.high.toFixed(4)}, n=${e.n})`;

/**
 * The reward metric's decision: refuse when liked answers became less likely by more than
 * `maxDrop`, or any answer by more than `maxShift`, each with 97.5% confidence (see the header).
 */
export function compareLikelihood(scores: readonly PairedScore[], maxDrop: number, maxShift: number): PairedVerdict {
  const used = scores.filter(usable);
  const liked = shiftEstimate(used.filter((s) => s.reward > 0).map(logprobShift));
  const all = shiftEstimate(used.map(logprobShift));
  const base = { liked, all, gap: null };
  if (liked !== null && liked.n >= 2 && liked.high < -maxDrop) {
    return {
      ...base,
      pass: false,
      reason: `liked held-out answers became less likely: mean log-prob change ${fmt(liked)} < −max_drop ${maxDrop}`,
    };
  }
  if (all !== null && all.n >= 2 && all.high < -maxShift) {
    return {
      ...base,
      pass: false,
      reason: `every answer scored became much less likely (a collapse): mean log-prob change ${fmt(all)} < −max_shift ${maxShift}`,
    };
  }
  const said = [liked !== null ? `liked ${fmt(liked)}` : 'no liked answers', all !== null ? `all ${fmt(all)}` : 'none usable'];
  return { ...base, pass: true, reason: `mean log-prob change per token: ${said.join('; ')}` };
}

/** The teacher-gap metric's decision: refuse when the gap to the teacher widened by more than `maxDrop` with 97.5% confidence. */
export function compareTeacherGap(scores: readonly PairedScore[], maxDrop: number, maxShift: number): PairedVerdict {
  const used = scores.filter((s) => usable(s) && s.teacher != null && s.teacher.length === s.serving.length);
  const gapOf = (lp: readonly number[], teacher: readonly number[]) => mean(lp.map((v, t) => Math.abs(teacher[t] - v)));
  const gap = shiftEstimate(used.map((s) => gapOf(s.candidate, s.teacher!) - gapOf(s.serving, s.teacher!)));
  const all = shiftEstimate(scores.filter(usable).map(logprobShift));
  const base = { liked: null, all, gap };
  if (gap !== null && gap.n >= 2 && gap.low > maxDrop) {
    return {
      ...base,
      pass: false,
      reason: `the gap to the hinted teacher widened: mean change ${gap.mean.toFixed(4)} (bound ${gap.low.toFixed(4)}, n=${gap.n}) > max_drop ${maxDrop}`,
    };
  }
  if (all !== null && all.n >= 2 && all.high < -maxShift) {
    return {
      ...base,
      pass: false,
      reason: `every answer scored became much less likely (a collapse): mean log-prob change ${fmt(all)} < −max_shift ${maxShift}`,
    };
  }
  return {
    ...base,
    pass: true,
    reason:
      gap !== null
        ? `teacher gap change ${gap.mean.toFixed(4)} (bound ${gap.low.toFixed(4)}, n=${gap.n})`
        : 'no held-out answer with teacher scores',
  };
}

/** One held-out answer's log-probs when it was first scored (its anchor) and under the candidate. */
export interface AnchoredScore {
  reward: number;
  anchor: readonly number[];
  candidate: readonly number[];
}

/** Liked against disliked answers, each by its mean log-prob change since its anchor. */
export interface DirectionEstimate {
  liked: ShiftEstimate;
  disliked: ShiftEstimate;
  /** liked.mean − disliked.mean, and its one-sided 97.5% upper bound (Welch). */
  diff: number;
  high: number;
}

/**
 * Which way training moved the held-out answers since each was first scored: learning makes liked
 * answers likelier relative to disliked ones, whatever both do in absolute terms (a healthy step
 * moves both down as the policy's style shifts). A step that is small by itself can still be one of
 * many in the wrong direction (inverted advantages): the change since the anchor adds them up.
 * Null without two answers of each kind.
 */
export function directionEstimate(items: readonly AnchoredScore[]): DirectionEstimate | null {
  const changes = (keep: (r: number) => boolean) =>
    items
      .filter((s) => keep(s.reward) && s.anchor.length > 0 && s.anchor.length === s.candidate.length)
      .map((s) => mean(s.candidate) - mean(s.anchor));
  const up = changes((r) => r > 0);
  const down = changes((r) => r < 0);
  if (up.length < 2 || down.length < 2) return null;
  const liked = shiftEstimate(up)!;
  const disliked = shiftEstimate(down)!;
  const variance = (xs: number[], m: number) => xs.reduce((a, v) => a + (v - m) ** 2, 0) / (xs.length - 1);
  const a = variance(up, liked.mean) / up.length;
  const b = variance(down, disliked.mean) / down.length;
  const se = Math.sqrt(a + b);
  // Welch–Satterthwaite degrees of freedom, rounded down (the more cautious t).
  const df =
    se === 0
      ? up.length + down.length - 2
      : Math.max(1, Math.floor((a + b) ** 2 / (a ** 2 / (up.length - 1) + b ** 2 / (down.length - 1))));
  const diff = liked.mean - disliked.mean;
  return { liked, disliked, diff, high: diff + tQuantile975(df) * se };
}

/** One trained answer: the per-token advantages it was trained with, and its log-probs before and after. */
export interface TrainedScore {
  advantages: ArrayLike<number>;
  before: readonly number[];
  after: readonly number[];
}

/**
 * How much one step moved its own batch the way its advantages asked, per answer:
 *   g_i = (1/T) Σ_t A_t · (log π_after(a_t) − log π_before(a_t))
 * the first-order gain of the policy-gradient objective the step maximised. Any update that
 * follows its gradient makes it positive, clipped or not; an update applied with the wrong sign
 * (or to the wrong tokens) makes it negative, however small the step — which a likelihood check
 * cannot tell from healthy learning. Answers with no advantage (masked) are left out.
 */
export function surrogateGain(items: readonly TrainedScore[]): ShiftEstimate | null {
  const gains: number[] = [];
  for (const s of items) {
    const T = s.before.length;
    if (T === 0 || s.after.length !== T || s.advantages.length !== T) continue;
    let g = 0;
    let any = false;
    for (let t = 0; t < T; t++) {
      const a = s.advantages[t];
      if (a !== 0) any = true;
      g += a * (s.after[t] - s.before[t]);
    }
    if (any) gains.push(g / T);
  }
  return shiftEstimate(gains);
}
