// The held-out set and the regression gate (docs/evaluation.md). In: the store's held-out samples
// (turns reserved by a hash of session and turn, never trained), scores of them under the serving
// and the trained-but-unpublished weights, `evaluation.gate`. Out: a verdict — whether the candidate may
// serve, from the per-sample paired changes and their confidence bounds (rl/paired.ts), with both
// versions' metric values for the step line.
import type { Config } from '../config/index.ts';
import type { PolicyEngine, ScoreRequest } from '../engines/types.ts';
import { modeSpec } from '../methods/index.ts';
import {
  compareLikelihood,
  compareTeacherGap,
  directionEstimate,
  holdoutMetric,
  surrogateGain,
  type AnchoredScore,
  holdoutPoint,
  type HoldoutMetric,
  type HoldoutValue,
  type PairedScore,
  type TrainedScore,
  turnKey,
} from '../rl/index.ts';
import type { SampleStore, StoredSample } from '../samples/index.ts';
import { teacherLogprobTemperature } from '../scoring/index.ts';

export { holdoutPoint };

/**
 * The held-out share of a store: moves the ready samples that fall in it out of training. Each
 * sample is decided once (the hash never changes its answer): only samples stored since the last
 * call are read, so calling it on every trainer poll costs one indexed query.
 */
export class HoldoutReserver {
  private scannedTo = 0;
  constructor(
    private readonly store: SampleStore,
    private readonly fraction: number,
  ) {}

  /** Reserves the new samples that fall in the share; returns how many moved. */
  reserveNew(): number {
    if (this.fraction <= 0) return 0;
    const r = this.store.reserveHoldout((s, t) => holdoutPoint(turnKey(s, t)) < this.fraction, this.scannedTo);
    this.scannedTo = r.scannedTo;
    return r.moved;
  }
}

/** The gate's metric for a config (`auto`: the mode's row says; the teacher gap in openclaw-opd, the reward log-prob otherwise). */
export function gateMetric(config: Config): HoldoutMetric {
  const m = config.evaluation.gate?.metric ?? 'auto';
  if (m !== 'auto') return m;
  return modeSpec(config.mode).gateMetric;
}

/** What the gate decided about one trained version. */
export interface GateVerdict {
  pass: boolean;
  metric: HoldoutMetric;
  /** The serving version's metric value, and the candidate's, on the same held-out samples (for the step line). */
  baseline: number | undefined;
  candidate: number | undefined;
  /** The mean paired change the decision read, as "worse by" (positive = worse), in the metric's units per token. */
  drop: number;
  /** The one-sided 97.5% bound on that change, toward "better" (the decision refuses when even it is past the limit). */
  bound: number | undefined;
  samples: number;
  reason: string;
}

/** Log-probs of answers under some weights (the serving ones, or the trained ones), in request order. */
export type ScoreMany = (reqs: ScoreRequest[]) => Promise<number[][]>;

/** One answer at a time, for weights an engine cannot score in batches. */
export function oneByOne(score: (req: ScoreRequest) => Promise<{ logprobs: number[] }>): ScoreMany {
  return async (reqs) => {
    const out: number[][] = [];
    for (const r of reqs) out.push((await score(r)).logprobs);
    return out;
  };
}

/** The trained (unpublished) weights of an engine that can score them: in batches where it can. */
export function trainedScorer(engine: PolicyEngine): ScoreMany {
  const many = engine.scoreTrainedMany?.bind(engine);
  if (many !== undefined) return (reqs) => (reqs.length === 0 ? Promise.resolve([]) : many(reqs));
  return oneByOne(engine.scoreTrained!.bind(engine));
}

/** The temperature the gate scores at: the teacher's for the teacher gap (it compares with the teacher's log-probs), the rollout's otherwise. */
function gateTemperature(config: Config): number {
  return gateMetric(config) === 'holdout_teacher_gap' ? teacherLogprobTemperature(config) : config.rollout.temperature;
}

/** Each held-out answer's log-probs under `score`'s weights (the serving or the trained ones), teacher-forced. */
export async function holdoutLogprobs(config: Config, held: StoredSample[], score: ScoreMany): Promise<number[][]> {
  const temperature = gateTemperature(config);
  return score(held.map((s) => ({ promptIds: s.promptIds, responseIds: s.responseIds, temperature })));
}

/**
 * The serving version's log-probs of the held-out answers, kept between steps. A version that
 * passed was scored as the candidate, and the same weights give the same log-probs once they serve
 * (on either thread, after a rollback to them too), so a step's baseline scores only the answers
 * held out since.
 */
export class ServingHeldOutScores {
  private version: number | undefined;
  private byId = new Map<string, number[]>();

  /** `held`'s log-probs under the weights of serving `version`, scoring with `score` those not known. */
  async of(config: Config, held: StoredSample[], version: number, score: ScoreMany): Promise<number[][]> {
    const known = this.version === version ? this.byId : new Map<string, number[]>();
    const missing = held.filter((s) => !known.has(s.id));
    const scored = await holdoutLogprobs(config, missing, score);
    missing.forEach((s, i) => known.set(s.id, scored[i]));
    const out = held.map((s) => known.get(s.id)!);
    this.keep(version, held, out);
    return out;
  }

  /** Remembers `scores` of `held` as those of `version`'s weights (the answers no longer held out are forgotten). */
  keep(version: number, held: StoredSample[], scores: number[][]): void {
    this.version = version;
    this.byId = new Map(held.map((s, i) => [s.id, scores[i]]));
  }
}

/** The gate's metric of held-out samples from their log-probs under one version. */
export function holdoutValueOf(config: Config, held: StoredSample[], logprobs: number[][]): HoldoutValue {
  return holdoutMetric(
    gateMetric(config),
    held.map((s, i) => ({ reward: s.reward, teacherLogprobs: s.teacherLogprobs, logprobs: logprobs[i] })),
  );
}

/**
 * The verdict on a candidate: its log-probs of the held-out answers against the serving
 * version's, sample by sample (rl/paired.ts). Fewer usable samples than min_samples: served, and
 * the reason says so.
 */
export function judgeCandidate(
  config: Config,
  held: StoredSample[],
  serving: number[][],
  candidate: number[][] | undefined,
  anchors?: number[][],
): GateVerdict {
  const gate = config.evaluation.gate!;
  const metric = gateMetric(config);
  const base = holdoutValueOf(config, held, serving);
  if (candidate === undefined || base.value === undefined || base.samples < gate.min_samples) {
    return {
      pass: true,
      metric,
      baseline: base.value,
      candidate: undefined,
      drop: 0,
      bound: undefined,
      samples: base.samples,
      reason: `${base.samples} usable held-out samples, fewer than evaluation.gate.min_samples ${gate.min_samples}: served unchecked`,
    };
  }
  const cand = holdoutValueOf(config, held, candidate);
  const paired: PairedScore[] = held.map((s, i) => ({
    reward: s.reward,
    serving: serving[i],
    candidate: candidate[i],
    teacher: s.teacherLogprobs,
  }));
  const v =
    metric === 'holdout_teacher_gap'
      ? compareTeacherGap(paired, gate.max_drop, gate.max_shift)
      : compareLikelihood(paired, gate.max_drop, gate.max_shift);
  // The estimate that decided (or would have): as "worse by", with its bound toward better.
  const decisive = metric === 'holdout_teacher_gap' ? v.gap : (v.liked ?? v.all);
  const worse =
    metric === 'holdout_teacher_gap'
      ? decisive && { drop: decisive.mean, bound: decisive.low }
      : decisive && { drop: -decisive.mean, bound: -decisive.high };
  const verdict: GateVerdict = {
    pass: v.pass,
    metric,
    baseline: base.value,
    candidate: cand.value,
    drop: worse?.drop ?? 0,
    bound: worse?.bound,
    samples: cand.samples,
    reason: v.reason,
  };
  if (!verdict.pass || anchors === undefined) return verdict;
  // Small steps in the wrong direction add up: liked answers against disliked ones since each was first scored.
  const d = directionEstimate(held.map((s, i) => ({ reward: s.reward, anchor: anchors[i], candidate: candidate[i] })));
  if (d === null || d.high >= -gate.max_reverse) return verdict;
  return {
    ...verdict,
    pass: false,
    drop: -d.diff,
    bound: -d.high,
    reason:
      `training moves backwards: since each held-out answer was first scored, liked ones changed by ${d.liked.mean.toFixed(4)} ` +
      `and disliked ones by ${d.disliked.mean.toFixed(4)} nats/token (n=${d.liked.n}/${d.disliked.n}); liked minus disliked ` +
      `${d.diff.toFixed(4)}, bound ${d.high.toFixed(4)} < −max_reverse ${gate.max_reverse}`,
  };
}

/**
 * The checks on the batch just trained, which run whatever the held-out count (the gate is
 * otherwise open until min_samples answers are held out, and a wrong learning rate breaks a model
 * in its first step): the trained weights score the batch's answers, against the log-probs they
 * were sampled with.
 * - A collapse (max_shift): training moves liked answers up and disliked ones down within PPO's
 *   clip; a broken update makes all of them much less likely.
 * - The wrong way: the step must have moved its own batch the way the trainer's advantages asked
 *   (rl/paired.ts surrogateGain, refused when its mean is below min_batch_gain), and liked answers
 *   up against disliked ones by the judge's rewards alone (directionEstimate, max_reverse) — an
 *   update applied with the wrong sign is as small as a healthy one, so only its direction shows it.
 * `advantages[i]`: the per-token advantages batch[i] was trained with. Returns a refusal (or none)
 * and the numbers for the step line.
 */
export async function batchCheck(
  config: Config,
  batch: StoredSample[],
  advantages: ReadonlyArray<ArrayLike<number>>,
  score: ScoreMany,
): Promise<{ refusal?: GateVerdict; metrics: Record<string, number> }> {
  const gate = config.evaluation.gate!;
  const temperature = config.rollout.temperature;
  const paired: PairedScore[] = [];
  const trained: TrainedScore[] = [];
  const anchored: AnchoredScore[] = [];
  const usable = [...batch.keys()].filter((i) => batch[i].rolloutLogprobs.length === batch[i].responseIds.length);
  const scores = await score(usable.map((i) => ({ promptIds: batch[i].promptIds, responseIds: batch[i].responseIds, temperature })));
  usable.forEach((i, k) => {
    const s = batch[i];
    const after = scores[k];
    paired.push({ reward: s.reward, serving: s.rolloutLogprobs, candidate: after });
    if (s.lossMask !== 1) return;
    trained.push({ advantages: advantages[i], before: s.rolloutLogprobs, after });
    anchored.push({ reward: s.reward, anchor: s.rolloutLogprobs, candidate: after });
  });
  const gain = surrogateGain(trained);
  const direction = directionEstimate(anchored);
  const metrics: Record<string, number> = {
    ...(gain !== null ? { gate_batch_gain: gain.mean } : {}),
    ...(direction !== null ? { gate_batch_direction: direction.diff, gate_batch_direction_bound: direction.high } : {}),
  };
  const v = compareLikelihood(paired, Number.POSITIVE_INFINITY, gate.max_shift);
  if (!v.pass && v.all !== null)
    return { metrics, refusal: refusalOf(config, `on the batch just trained: ${v.reason}`, v.all.n, -v.all.mean, -v.all.high) };
  // Not an estimate with noise to bound: the batch is the whole population the step was computed
  // on, and following the gradient (Adam's included) raises this to first order.
  if (gain !== null && gain.mean < gate.min_batch_gain)
    return {
      metrics,
      refusal: refusalOf(
        config,
        `on the batch just trained: the step lowered the objective it trained on — mean advantage × log-prob change ${gain.mean.toFixed(4)} per token over ${gain.n} answers (a step that follows its gradient raises it; evaluation.gate.min_batch_gain ${gate.min_batch_gain})`,
        gain.n,
        -gain.mean,
      ),
    };
  if (direction !== null && direction.high < -gate.max_reverse)
    return {
      metrics,
      refusal: refusalOf(
        config,
        `on the batch just trained: liked answers fell behind disliked ones — changed by ${direction.liked.mean.toFixed(4)} and ${direction.disliked.mean.toFixed(4)} nats/token (n=${direction.liked.n}/${direction.disliked.n}); liked minus disliked ${direction.diff.toFixed(4)}, bound ${direction.high.toFixed(4)} < −max_reverse ${gate.max_reverse}`,
        direction.liked.n + direction.disliked.n,
        -direction.diff,
        -direction.high,
      ),
    };
  return { metrics };
}

/** A refusal by a check that has no held-out metric values of its own (the batch and probe checks). */
export function refusalOf(config: Config, reason: string, samples: number, drop = 0, bound?: number): GateVerdict {
  return { pass: false, metric: gateMetric(config), baseline: undefined, candidate: undefined, drop, bound, samples, reason };
}
