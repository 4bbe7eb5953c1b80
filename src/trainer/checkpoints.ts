// Training checkpoints of a run: `<output_dir>/checkpoints/step-NNNNNN/`, one per saved step.
// A checkpoint is the engine's state (embedded: weights + optimizer + reference; tinker: the
// server paths of the saved training state and of the sampler saved at the same step) plus
// `trainer.json`, written last. It is built in a `.partial` folder and renamed into place only when
// complete, so a crash mid-save leaves no folder that looks finished, and a finished folder is
// never written again. `train` resumes from the newest complete one (docs/design.md §3, "Checkpoints and resume").
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { OpenClawError } from '../errors/index.ts';

/** Folder of the checkpoints under a run's output folder. */
export const CHECKPOINTS_DIR = 'checkpoints';
/** The manifest that marks a checkpoint complete. */
export const TRAINER_MANIFEST = 'trainer.json';

const ManifestSchema = z.object({
  format: z.literal('openclaw-rl-trainer'),
  /** Training steps completed when saved. */
  step: z.number().int().min(0),
  /** The policy version the saved weights were served as. */
  policy_version: z.number().int().min(0),
  /** Engine kind that wrote the folder (`embedded`, `tinker`): a resume needs the same. */
  engine: z.string(),
  saved_at: z.string(),
});
/** Contents of trainer.json. */
export type TrainerManifest = z.infer<typeof ManifestSchema>;

/** A complete checkpoint found on disk. */
export interface FoundCheckpoint {
  dir: string;
  manifest: TrainerManifest;
}

// step-000012, or step-000012-rollback-v15: the state a rollback restored at step 12, served as v15.
const STEP_DIR = /^step-(\d{6,})(?:-rollback-v\d+)?$/;

/** The folder of step `step`'s checkpoint. */
export function checkpointDir(outputDir: string, step: number): string {
  return join(outputDir, CHECKPOINTS_DIR, `step-${String(step).padStart(6, '0')}`);
}

function readManifest(dir: string): TrainerManifest | undefined {
  const path = join(dir, TRAINER_MANIFEST);
  if (!existsSync(path)) return undefined;
  try {
    return ManifestSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch (err) {
    throw new OpenClawError(
      'data',
      `${path} is damaged (${(err as Error).message.slice(0, 200)}); move that checkpoint folder away to resume from an older one, or start over with --fresh`,
    );
  }
}

/** Complete checkpoints of a run, oldest first (folders without trainer.json are not checkpoints). */
export function listCheckpoints(outputDir: string): FoundCheckpoint[] {
  const root = join(outputDir, CHECKPOINTS_DIR);
  if (!existsSync(root)) return [];
  const found: FoundCheckpoint[] = [];
  for (const name of readdirSync(root)) {
    if (!STEP_DIR.test(name)) continue;
    const dir = join(root, name);
    const manifest = readManifest(dir);
    if (manifest !== undefined) found.push({ dir, manifest });
  }
  // A rollback's folder is saved after the step's own one: at the same step it is the newer state.
  return found.sort((a, b) => a.manifest.step - b.manifest.step || a.manifest.saved_at.localeCompare(b.manifest.saved_at));
}

/** The newest kept checkpoint whose weights were served as `version`. */
export function checkpointOfVersion(outputDir: string, version: number): FoundCheckpoint | undefined {
  return listCheckpoints(outputDir)
    .filter((c) => c.manifest.policy_version === version)
    .at(-1);
}

/**
 * A rollback's target: the newest kept checkpoint of `version`, and all kept ones; a version that
 * is not kept is a not_found error listing those that are (`param` names the request field).
 */
export function rollbackTarget(outputDir: string, version: number, param: string): { target: FoundCheckpoint; all: FoundCheckpoint[] } {
  const all = listCheckpoints(outputDir);
  const target = all.filter((c) => c.manifest.policy_version === version).at(-1);
  if (target === undefined) {
    const kept = [...new Set(all.map((c) => c.manifest.policy_version))].join(', ') || 'none';
    throw new OpenClawError(
      'not_found',
      `no kept checkpoint under ${join(outputDir, CHECKPOINTS_DIR)} holds policy version ${version} (kept versions: ${kept}; training.keep_checkpoints bounds how many are kept)`,
      { param, code: 'version_not_kept' },
    );
  }
  return { target, all };
}

/** The newest complete checkpoint, if any. */
export function newestCheckpoint(outputDir: string): FoundCheckpoint | undefined {
  return listCheckpoints(outputDir).at(-1);
}

/**
 * Saves step `manifest.step`: `writeEngine` fills a fresh `.partial` folder, the manifest goes in
 * last, then one rename publishes it. A folder already at the final name (left by a version that
 * wrote in place, without a manifest) is moved aside, never overwritten or merged into.
 */
export async function saveCheckpoint(
  outputDir: string,
  manifest: Omit<TrainerManifest, 'format' | 'saved_at'>,
  writeEngine: (dir: string) => Promise<void>,
  opts: { rollback?: boolean } = {},
): Promise<FoundCheckpoint> {
  const base = checkpointDir(outputDir, manifest.step);
  const dir = opts.rollback ? `${base}-rollback-v${manifest.policy_version}` : base;
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  // Not recursive: a run folder that was removed is an error here, never silently re-created.
  const root = join(outputDir, CHECKPOINTS_DIR);
  if (!existsSync(root)) mkdirSync(root);
  mkdirSync(partial);
  await writeEngine(partial);
  const full: TrainerManifest = { format: 'openclaw-rl-trainer', ...manifest, saved_at: new Date().toISOString() };
  writeFileSync(join(partial, TRAINER_MANIFEST), `${JSON.stringify(full, null, 2)}\n`);
  if (existsSync(dir)) renameSync(dir, `${dir}.replaced-${Date.now().toString(36)}`);
  renameSync(partial, dir);
  return { dir, manifest: full };
}

/** Removes the oldest complete checkpoints beyond the newest `keep` (0 keeps all); returns the removed folders. */
export function pruneCheckpoints(outputDir: string, keep: number): string[] {
  if (keep <= 0) return [];
  const all = listCheckpoints(outputDir);
  const removed = all.slice(0, Math.max(0, all.length - keep)).map((c) => c.dir);
  for (const dir of removed) rmSync(dir, { recursive: true, force: true });
  return removed;
}
