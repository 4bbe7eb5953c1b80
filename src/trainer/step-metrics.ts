// A training step's line (logs/train.log, logs/metrics.jsonl, /metrics). In: what the step
// leased, the batch's numbers, the engine's, the gate's, the replay evaluation's and the scoring
// stage's running rates. Out: the StepMetrics the trainer logs and hands to `onStep`.
import type { TrainStepMetrics } from '../engines/types.ts';
import type { BatchStats } from '../rl/index.ts';
import type { Lease } from '../samples/index.ts';
import { evaluationStepMetrics, type VersionEvaluationResult } from './evaluate.ts';
import type { GateResult } from './step-gate.ts';
import type { StepMetrics } from './log.ts';

/** What one step's line is made of. */
export interface StepRecord {
  step: number;
  /** The version serving after the step. */
  version: number;
  lease: Lease;
  stats: BatchStats;
  /** The engine's numbers (undefined: it trained nothing). */
  engineMetrics: TrainStepMetrics | undefined;
  gate: GateResult | undefined;
  evaluation: VersionEvaluationResult | undefined;
  /** When the step started (performance.now()). */
  t0: number;
  /** The scoring stage's running rates, read last. */
  extraStats: () => Record<string, number> | undefined;
}

/** The step line; its time is the step's until now. */
export function stepMetrics(r: StepRecord): StepMetrics {
  const { stats, engineMetrics, gate, evaluation } = r;
  return {
    step: r.step,
    policy_version: r.version,
    batch_size: r.lease.samples.length,
    advantage_mean: stats.advantage_mean,
    advantage_std: stats.advantage_std,
    effective_sample_rate: stats.effective_sample_rate,
    hint_accept_rate: 0,
    reward_mean: stats.reward_mean,
    pg_loss: engineMetrics?.pg_loss ?? 0,
    pg_clipfrac: engineMetrics?.pg_clipfrac ?? 0,
    ppo_kl: engineMetrics?.ppo_kl ?? 0,
    entropy: engineMetrics?.entropy ?? 0,
    kl_loss: engineMetrics?.kl_loss ?? 0,
    grad_norm: engineMetrics?.grad_norm ?? 0,
    staleness_mean: stats.staleness_mean,
    stale_dropped: r.lease.staleDropped,
    train_rollout_logprob_abs_diff: engineMetrics?.train_rollout_logprob_abs_diff ?? 0,
    response_length_mean: stats.response_length_mean,
    tokens: engineMetrics?.tokens ?? 0,
    step_time_s: (performance.now() - r.t0) / 1000,
    ...(gate !== undefined ? gateStepMetrics(gate) : {}),
    ...(gate?.batchMetrics ?? {}),
    ...(gate?.probeMetrics ?? {}),
    ...(evaluation !== undefined ? evaluationStepMetrics(evaluation) : {}),
    ...(r.extraStats() ?? {}),
  };
}

/** The gate's numbers: its verdict, what it read, and what it cost. */
function gateStepMetrics(gate: GateResult): Record<string, number> {
  const { verdict } = gate;
  return {
    gate_passed: verdict.pass ? 1 : 0,
    gate_time_s: gate.ms / 1000,
    gate_drop: verdict.drop,
    ...(verdict.bound !== undefined ? { gate_bound: verdict.bound } : {}),
    gate_samples: verdict.samples,
    ...(verdict.candidate !== undefined ? { gate_candidate: verdict.candidate } : {}),
    ...(verdict.baseline !== undefined ? { gate_baseline: verdict.baseline } : {}),
  };
}
