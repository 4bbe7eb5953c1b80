// Where `train` continues from (docs/design.md §3, "Checkpoints and resume"). Inputs: the run's output folder (its newest
// complete checkpoint, its step logs) and its sample store. Output: a ResumePlan — the checkpoint
// to load, the step counter, and the version the restored weights are served as — after making
// every record agree with that checkpoint: samples trained by later steps return to ready, and the
// log lines of those steps move to logs/discarded-steps.* (a step is in every record or in none).
// Versions never go backwards: when turns were answered by versions newer than the checkpoint
// (published, then lost in a crash), the restored weights are served under a new number above them.
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenClawError } from '../errors/index.ts';
import type { SampleStore } from '../samples/index.ts';
import { CHECKPOINTS_DIR, newestCheckpoint, rollbackTarget, saveCheckpoint, type FoundCheckpoint } from './checkpoints.ts';
import { TrainLog } from './log.ts';

/** What a starting trainer continues from. */
export interface ResumePlan {
  /** The checkpoint to load; undefined: the configured starting weights. */
  from: FoundCheckpoint | undefined;
  /** Steps already done (the next step is step + 1). */
  step: number;
  /** Version to serve the starting weights as. */
  version: number;
  /** Samples returned to ready because the steps that trained them did not survive. */
  requeued: number;
  /** Step log lines moved to logs/discarded-steps.* for the same reason. */
  discardedSteps: number;
}

interface LogRewind {
  discarded: number;
  maxVersion: number;
}

function rewriteAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/**
 * Keeps the step lines of train.log and metrics.jsonl up to `step`; later ones are appended to
 * logs/discarded-steps.log / .jsonl. Returns how many steps went and the highest version logged.
 */
export function rewindStepLogs(outputDir: string, step: number): LogRewind {
  const logs = join(outputDir, 'logs');
  let discarded = 0;
  let maxVersion = 0;
  const files: Array<[string, string, (line: string) => { step: number; version: number } | undefined]> = [
    [
      'metrics.jsonl',
      'discarded-steps.jsonl',
      (line) => {
        try {
          const o = JSON.parse(line) as { step?: unknown; policy_version?: unknown };
          return typeof o.step === 'number' ? { step: o.step, version: Number(o.policy_version ?? 0) } : undefined;
        } catch {
          return undefined;
        }
      },
    ],
    [
      'train.log',
      'discarded-steps.log',
      (line) => {
        const s = /(?:^|\s)step=(\d+)(?:\s|$)/.exec(line);
        const v = /(?:^|\s)policy_version=(\d+)(?:\s|$)/.exec(line);
        return s ? { step: Number(s[1]), version: v ? Number(v[1]) : 0 } : undefined;
      },
    ],
  ];
  for (const [name, discardName, parse] of files) {
    const path = join(logs, name);
    if (!existsSync(path)) continue;
    const keep: string[] = [];
    const moved: string[] = [];
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line === '') continue;
      const p = parse(line);
      if (p !== undefined) maxVersion = Math.max(maxVersion, p.version);
      (p !== undefined && p.step > step ? moved : keep).push(line);
    }
    if (moved.length === 0) continue;
    if (name === 'metrics.jsonl') discarded = moved.length;
    appendFileSync(join(logs, discardName), `${moved.join('\n')}\n`);
    rewriteAtomic(path, keep.length > 0 ? `${keep.join('\n')}\n` : '');
  }
  return { discarded, maxVersion };
}

/**
 * Plans the resume of `outputDir` for an engine of kind `engineKind`, and rewinds the store and
 * the step logs to the chosen checkpoint. A checkpoint of another engine kind is a config error.
 */
export function planResume(outputDir: string, store: SampleStore, engineKind: string): ResumePlan {
  const from = newestCheckpoint(outputDir);
  if (from !== undefined && from.manifest.engine !== engineKind) {
    throw new OpenClawError(
      'config',
      `${from.dir} was written by the ${from.manifest.engine} engine, but this run trains with ${engineKind}; use another output_dir, or start over with --fresh`,
      { param: 'output_dir' },
    );
  }
  const step = from?.manifest.step ?? 0;
  const requeued = store.requeueTrainedAfter(step);
  const logs = rewindStepLogs(outputDir, step);
  const saved = from?.manifest.policy_version ?? 0;
  const seen = Math.max(store.maxPolicyVersion(), logs.maxVersion);
  return { from, step, version: seen > saved ? seen + 1 : saved, requeued, discardedSteps: logs.discarded };
}

/** The names a run writes under its output folder (what --fresh moves aside). */
const RUN_ENTRIES = [
  'samples.sqlite',
  'samples.sqlite-wal',
  'samples.sqlite-shm',
  'records',
  'logs',
  CHECKPOINTS_DIR,
  'tinker-state.json',
  'tinker-seq.json',
];

/**
 * `--fresh`: moves the previous run's files to `<output_dir>/previous/<time>/` (nothing is
 * deleted); returns that folder, or undefined when there was nothing to move.
 */
export function archivePreviousRun(outputDir: string): string | undefined {
  if (!existsSync(outputDir)) return undefined;
  const present = readdirSync(outputDir).filter((n) => RUN_ENTRIES.includes(n));
  if (present.length === 0) return undefined;
  const dest = join(outputDir, 'previous', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(dest, { recursive: true });
  for (const name of present) renameSync(join(outputDir, name), join(dest, name));
  return dest;
}

/**
 * `openclaw-rl rollback` on a stopped run: copies the kept checkpoint of `toVersion` into a new
 * newest checkpoint (served as a new version number), so the next `train` continues from it.
 * Returns the folder written and the version it will serve as.
 */
export async function rollbackStoppedRun(
  outputDir: string,
  store: SampleStore,
  toVersion: number,
): Promise<{ checkpoint: string; policy_version: number; restored: string }> {
  const { target, all } = rollbackTarget(outputDir, toVersion, '--to');
  const newest = all.at(-1)!;
  const logs = rewindStepLogs(outputDir, newest.manifest.step);
  const version = Math.max(store.maxPolicyVersion(), logs.maxVersion, ...all.map((c) => c.manifest.policy_version)) + 1;
  const saved = await saveCheckpoint(
    outputDir,
    { step: newest.manifest.step, policy_version: version, engine: target.manifest.engine },
    async (dir) => cpSync(target.dir, dir, { recursive: true }),
    { rollback: true },
  );
  new TrainLog(outputDir).event('rollback', {
    at_step: newest.manifest.step,
    to_version: toVersion,
    policy_version: version,
    restored: target.dir,
  });
  return { checkpoint: saved.dir, policy_version: version, restored: target.dir };
}
