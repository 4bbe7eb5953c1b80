// Per-policy-version evaluation as a pure function of the store's tally (SampleStore.tallyByVersion):
// which turns count as judged, and the reward mean, −1 rate and hint rate of each version with
// their intervals. The meaning of every number is in docs/evaluation.md.
import type { GateRefusals } from './gate-refusals.ts';
import type { DropTallyRow, SampleTallyRow, SampleType, VersionTally } from '../samples/index.ts';
import { meanWithInterval, wilson, type Interval, type RateEstimate } from './stats.ts';

/**
 * Outcomes that mean "judged, and the judge found nothing": reward 0 and no hint. The mode's
 * filters turn such turns into drops (three-way dispatch: `no_signal`; hint-reject:
 * `hint_rejected`) or into masked samples (filters off); counting them as judged turns either way
 * keeps the numbers the same whichever filters were on.
 */
export const NEUTRAL_DROP_REASONS: ReadonlySet<string> = new Set(['no_signal', 'hint_rejected']);

/** A rate with its count, denominator and 95% Wilson interval (JSON shape). */
export interface RateJson {
  count: number;
  n: number;
  rate: number | null;
  ci95: Interval | null;
}

/** The evaluation of one policy version (one set of weights: versions are never reused). */
export interface VersionEvaluation {
  policy_version: number;
  /** Sample rows answered by this version, in any state (a combine turn is one sample). */
  samples: number;
  /** Turns whose next state was judged: the n of every number below. */
  judged_turns: number;
  /** Samples with no judgement behind them (no next state, or every judge vote failed). */
  unjudged_samples: number;
  reward: { n: number; mean: number | null; std: number | null; ci95: Interval | null };
  /** Judged turns by the sign of their reward. */
  rewards: { positive: number; zero: number; negative: number };
  /** Share of judged turns with a negative reward (the −1 rate; graded feedback can give fractions). */
  negative_rate: RateJson;
  /** Share of judged turns that carried an accepted hint. */
  hint_rate: RateJson;
  sample_types: Record<SampleType, number>;
  /** Samples of this version dropped after they were stored (`stale`, feedback …), by reason. */
  dropped_samples: Record<string, number>;
  /** Turns of this version that ended without a sample, by reason (those whose drop recorded a version). */
  dropped_turns: Record<string, number>;
  /** When the first and last of its samples were stored (ISO 8601), or null without samples. */
  first_sample_at: string | null;
  last_sample_at: string | null;
  /**
   * Judge-free numbers measured on the version's own new answers (replay evaluation, probes), by
   * metric: `replay_opd_advantage`, `replay_hint_satisfied`, `probe_kl`, … ({} when none ran).
   */
  replay: Record<string, ReplayJson>;
}

/** One replay metric of a version: its value, on how many held-out samples or probes, and when. */
export interface ReplayJson {
  value: number;
  samples: number;
  at: string;
}

/** The whole evaluation: one entry per policy version, oldest first. */
export interface Evaluation {
  object: 'evaluation';
  generated_at: string;
  /** The version serving now, when known (a running server). */
  serving_policy_version: number | null;
  intervals: { reward: 'student_t_95'; rates: 'wilson_95' };
  versions: VersionEvaluation[];
  /** Turn drops recorded without a policy version (written before drops carried one), by reason. */
  dropped_turns_without_version: Record<string, number>;
  /** When the oldest turn the store keeps was stored (storage.retention_days, forget), when read from a run's folder. */
  oldest_turn_at?: string | null;
  /** The regression gate's refusals in the run's metrics log (gate-refusals.ts), when the run's folder is known. */
  gate_refusals?: GateRefusals;
}

interface Acc {
  samples: number;
  unjudged: number;
  rewards: Map<number, number>;
  hints: number;
  types: Record<SampleType, number>;
  droppedSamples: Record<string, number>;
  droppedTurns: Record<string, number>;
  firstAt: number | null;
  lastAt: number | null;
  replay: Record<string, ReplayJson>;
}

function newAcc(): Acc {
  return {
    samples: 0,
    unjudged: 0,
    rewards: new Map(),
    hints: 0,
    types: { rl: 0, opd: 0, 'opd+rl': 0 },
    droppedSamples: {},
    droppedTurns: {},
    firstAt: null,
    lastAt: null,
    replay: {},
  };
}

function add(map: Map<number, number>, key: number, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

function bump(rec: Record<string, number>, key: string, n: number): void {
  rec[key] = (rec[key] ?? 0) + n;
}

/** How one group of samples counts: judged or not, and with which reward and hint. */
function addSamples(acc: Acc, row: SampleTallyRow): void {
  acc.samples += row.n;
  acc.types[row.type] += row.n;
  acc.firstAt = acc.firstAt === null ? row.firstAt : Math.min(acc.firstAt, row.firstAt);
  acc.lastAt = acc.lastAt === null ? row.lastAt : Math.max(acc.lastAt, row.lastAt);
  if (row.state === 'dropped') bump(acc.droppedSamples, row.dropReason ?? 'unknown', row.n);
  // Feedback can re-decide a stored sample into a neutral drop; the row keeps its old fields.
  if (row.state === 'dropped' && NEUTRAL_DROP_REASONS.has(row.dropReason ?? '')) {
    add(acc.rewards, 0, row.n);
    return;
  }
  const judged = row.reward !== 0 || row.hasHint || row.hasVote;
  if (!judged) {
    acc.unjudged += row.n;
    return;
  }
  add(acc.rewards, row.reward, row.n);
  if (row.hasHint) acc.hints += row.n;
}

function rateJson(r: RateEstimate): RateJson {
  return { count: r.count, n: r.n, rate: r.rate, ci95: r.ci95 };
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function finish(version: number, acc: Acc): VersionEvaluation {
  const values = [...acc.rewards.entries()].map(([value, n]) => ({ value, n }));
  const reward = meanWithInterval(values);
  let positive = 0;
  let zero = 0;
  let negative = 0;
  for (const { value, n } of values) {
    if (value > 0) positive += n;
    else if (value < 0) negative += n;
    else zero += n;
  }
  const judged = reward.n;
  return {
    policy_version: version,
    samples: acc.samples,
    judged_turns: judged,
    unjudged_samples: acc.unjudged,
    reward: { n: reward.n, mean: reward.mean, std: reward.std, ci95: reward.ci95 },
    rewards: { positive, zero, negative },
    negative_rate: rateJson(wilson(negative, judged)),
    hint_rate: rateJson(wilson(acc.hints, judged)),
    sample_types: acc.types,
    dropped_samples: acc.droppedSamples,
    dropped_turns: acc.droppedTurns,
    first_sample_at: iso(acc.firstAt),
    last_sample_at: iso(acc.lastAt),
    replay: acc.replay,
  };
}

/** Options of `evaluate`. */
export interface EvaluateOptions {
  /** The version serving now, if known. */
  servingVersion?: number | null;
  /** Clock for `generated_at` (tests). */
  now?: number;
}

/** Aggregates a store's tally into the per-version evaluation (versions ascending). */
export function evaluate(tally: VersionTally, opts: EvaluateOptions = {}): Evaluation {
  const byVersion = new Map<number, Acc>();
  const accOf = (v: number) => {
    let acc = byVersion.get(v);
    if (acc === undefined) byVersion.set(v, (acc = newAcc()));
    return acc;
  };
  for (const row of tally.samples) addSamples(accOf(row.policyVersion), row);
  const withoutVersion: Record<string, number> = {};
  for (const d of tally.turnDrops) addDrop(d, accOf, withoutVersion);
  for (const r of tally.evaluations ?? []) accOf(r.policyVersion).replay[r.metric] = { value: r.value, samples: r.samples, at: iso(r.at)! };
  const versions = [...byVersion.keys()].sort((a, b) => a - b).map((v) => finish(v, byVersion.get(v)!));
  return {
    object: 'evaluation',
    generated_at: new Date(opts.now ?? Date.now()).toISOString(),
    serving_policy_version: opts.servingVersion ?? null,
    intervals: { reward: 'student_t_95', rates: 'wilson_95' },
    versions,
    dropped_turns_without_version: withoutVersion,
  };
}

function addDrop(d: DropTallyRow, accOf: (v: number) => Acc, withoutVersion: Record<string, number>): void {
  if (d.policyVersion === null) {
    bump(withoutVersion, d.reason, d.n);
    return;
  }
  const acc = accOf(d.policyVersion);
  bump(acc.droppedTurns, d.reason, d.n);
  if (NEUTRAL_DROP_REASONS.has(d.reason)) add(acc.rewards, 0, d.n);
}
