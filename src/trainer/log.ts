// Per-step training logs: one `key=value` line per step in `<output_dir>/logs/train.log` (the
// format the seed notes grep: `grep advantage logs/train.log`), the same numbers as one JSON object
// per line in `logs/metrics.jsonl`, and the latest values for `/metrics`.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The fixed metric keys of one step (docs/design.md §4), in log order. */
export const STEP_KEYS = [
  'step',
  'policy_version',
  'batch_size',
  'advantage_mean',
  'advantage_std',
  'effective_sample_rate',
  'hint_accept_rate',
  'reward_mean',
  'pg_loss',
  'pg_clipfrac',
  'ppo_kl',
  'entropy',
  'kl_loss',
  'grad_norm',
  'staleness_mean',
  'stale_dropped',
  'train_rollout_logprob_abs_diff',
  'response_length_mean',
  'tokens',
  'step_time_s',
] as const;

/** One step's numbers. */
export type StepMetrics = Record<(typeof STEP_KEYS)[number], number> & Record<string, number>;

function fmt(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 1e-3 || v === 0 ? v.toFixed(4) : v.toExponential(3);
}

/** Formats a step as `step=3 advantage_mean=0.0200 …` (fixed keys first, extras after). */
export function formatStepLine(m: StepMetrics): string {
  const keys = [
    ...STEP_KEYS,
    ...Object.keys(m)
      .filter((k) => !(STEP_KEYS as readonly string[]).includes(k))
      .sort(),
  ];
  return keys
    .filter((k) => m[k] !== undefined)
    .map((k) => `${k}=${fmt(m[k])}`)
    .join(' ');
}

/** Appends step lines to train.log and metrics.jsonl; keeps the latest step for /metrics. */
export class TrainLog {
  readonly trainLogPath: string;
  readonly metricsPath: string;
  latest: StepMetrics | undefined;

  constructor(outputDir: string) {
    // Absolute: Node's recursive mkdir loops forever on a relative path whose working folder was removed.
    const dir = resolve(outputDir, 'logs');
    mkdirSync(dir, { recursive: true });
    this.trainLogPath = join(dir, 'train.log');
    this.metricsPath = join(dir, 'metrics.jsonl');
  }

  /**
   * An event between steps (rollback, gate decision) as a `# `-prefixed line in train.log, so
   * readers of step lines skip it, and as a JSON object with an `event` key in metrics.jsonl.
   */
  event(name: string, fields: Record<string, number | string>): void {
    const time = new Date().toISOString();
    const kv = Object.entries(fields)
      .map(([k, v]) => `${k}=${typeof v === 'number' ? fmt(v) : v}`)
      .join(' ');
    appendFileSync(this.trainLogPath, `# ${time} ${name} ${kv}\n`);
    appendFileSync(this.metricsPath, `${JSON.stringify({ time, event: name, ...fields })}\n`);
  }

  write(m: StepMetrics): void {
    const time = new Date().toISOString();
    appendFileSync(this.trainLogPath, `${time} ${formatStepLine(m)}\n`);
    appendFileSync(this.metricsPath, JSON.stringify({ time, ...m }) + '\n');
    this.latest = m;
  }
}
