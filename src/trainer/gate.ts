// The held-out set and the regression gate (docs/evaluation.md). In: the store's held-out samples
// (turns reserved by a hash of session and turn, never trained), scores of them under the serving
// and the trained-but-unpublished weights, `evaluation.gate`. Out: a verdict — the candidate's metric next
// to the serving version's on the same samples, and whether the candidate may serve.
import type { Config } from '../config/index.ts';
import { modeSpec } from '../methods/index.ts';
import { holdoutDrop, holdoutMetric, holdoutPoint, type HoldoutMetric, type HoldoutScore, type HoldoutValue } from '../rl/index.ts';
import type { SampleStore, StoredSample } from '../samples/index.ts';
import { turnKey } from '../util/turn-key.ts';
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
  /** The serving version's value, and the candidate's, on the same held-out samples. */
  baseline: number | undefined;
  candidate: number | undefined;
  /** candidate worse than baseline by this much (positive = worse). */
  drop: number;
  samples: number;
  reason: string;
}

/** Log-probs of an answer under some weights (the serving ones, or the trained ones). */
type Score = (req: { promptIds: number[]; responseIds: number[]; temperature: number }) => Promise<{ logprobs: number[] }>;

async function scoreAll(samples: StoredSample[], score: Score, temperature: number): Promise<HoldoutScore[]> {
  const out: HoldoutScore[] = [];
  for (const s of samples) {
    const r = await score({ promptIds: s.promptIds, responseIds: s.responseIds, temperature });
    out.push({ reward: s.reward, teacherLogprobs: s.teacherLogprobs, logprobs: r.logprobs });
  }
  return out;
}

/** The gate's metric on held-out samples, scored by `score` (the serving or the trained weights). */
export async function holdoutValue(config: Config, held: StoredSample[], score: Score): Promise<HoldoutValue> {
  const metric = gateMetric(config);
  // The teacher gap compares with the teacher's log-probs: score at the temperature they come at.
  const temperature = metric === 'holdout_teacher_gap' ? teacherLogprobTemperature(config) : config.rollout.temperature;
  return holdoutMetric(metric, await scoreAll(held, score, temperature));
}

/** The verdict on a candidate against the serving version's value on the same held-out samples. */
export function judgeCandidate(config: Config, base: HoldoutValue, cand: HoldoutValue | undefined): GateVerdict {
  const gate = config.evaluation.gate!;
  const metric = gateMetric(config);
  if (cand === undefined || base.value === undefined || cand.value === undefined || base.samples < gate.min_samples) {
    return {
      pass: true,
      metric,
      baseline: base.value,
      candidate: undefined,
      drop: 0,
      samples: base.samples,
      reason: `${base.samples} usable held-out samples, fewer than evaluation.gate.min_samples ${gate.min_samples}: served unchecked`,
    };
  }
  const drop = holdoutDrop(metric, base.value, cand.value);
  const pass = drop <= gate.max_drop;
  const values = `${cand.value.toFixed(4)} vs serving ${base.value.toFixed(4)} on ${cand.samples} held-out samples`;
  return {
    pass,
    metric,
    baseline: base.value,
    candidate: cand.value,
    drop,
    samples: cand.samples,
    reason: pass ? `${metric} ${values}` : `${metric} worse by ${drop.toFixed(4)} (> evaluation.gate.max_drop ${gate.max_drop}): ${values}`,
  };
}
