// What a Tinker run keeps in each checkpoint folder (trainer/checkpoints.ts), as `tinker.json`:
// the server path of the full training state saved at that step (weights + optimizer,
// `tinker://…/weights/…`), the sampler path published at the same step, and the version it was
// served as. A resume loads that training state into a new training model and serves that sampler
// from the first request, so the learner and the served policy always agree.
// `tinker-state.json` in the output folder is what earlier versions kept instead; it is only read
// to say how to continue from it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { OpenClawError } from '../../errors/index.ts';

/** The file inside a checkpoint folder. */
export const CHECKPOINT_FILE = 'tinker.json';
/** The state file of earlier versions, under the output folder. */
export const LEGACY_STATE_FILE = 'tinker-state.json';

const CheckpointSchema = z.object({
  base_model: z.string(),
  /** The training model that saved it (unloaded on resume: it holds a LoRA slot). */
  model_id: z.string(),
  /** Full training state: load_weights(…, optimizer: true) continues from it. */
  weights_path: z.string().startsWith('tinker://'),
  /** Sampler weights of the same step; null when the step published none (base model served). */
  sampler_path: z.string().startsWith('tinker://').nullable(),
  version: z.number().int().min(0),
});
/** Contents of tinker.json. */
export type TinkerCheckpoint = z.infer<typeof CheckpointSchema>;

/**
 * Reads `dir/tinker.json`; undefined when the folder has none (saved before anything was trained:
 * the base model); a damaged file is a clear error naming it.
 */
export function readTinkerCheckpoint(dir: string): TinkerCheckpoint | undefined {
  const path = join(dir, CHECKPOINT_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return CheckpointSchema.parse(JSON.parse(text));
  } catch (err) {
    throw new OpenClawError(
      'data',
      `${path} is damaged (${(err as Error).message.slice(0, 200)}); move that checkpoint folder away to resume from an older one`,
    );
  }
}

/** Writes `dir/tinker.json` (the checkpoint folder is published by one rename afterwards). */
export function writeTinkerCheckpoint(dir: string, data: TinkerCheckpoint): void {
  writeFileSync(join(dir, CHECKPOINT_FILE), `${JSON.stringify(data, null, 2)}\n`);
}

/** The training-state path an earlier version's tinker-state.json recorded, if any. */
export function legacyWeightsPath(outputDir: string): string | undefined {
  try {
    const o = JSON.parse(readFileSync(join(outputDir, LEGACY_STATE_FILE), 'utf8')) as { weights_path?: unknown };
    return typeof o.weights_path === 'string' ? o.weights_path : undefined;
  } catch {
    return undefined;
  }
}
