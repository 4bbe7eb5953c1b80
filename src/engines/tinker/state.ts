// What a Tinker run must remember across restarts of our server, in <output_dir>/tinker-state.json:
// the sampler path being served and its version, and the last saved training state (a tinker://
// weights path) that `train` resumes from. Written atomically (tmp + rename).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { OpenClawError } from '../../errors/index.ts';

/** The state file's name under the output dir. */
export const STATE_FILE = 'tinker-state.json';

const StateSchema = z.object({
  base_model: z.string(),
  /** Training model of the current process (informational: a restart makes a new one). */
  model_id: z.string().nullable().default(null),
  /** Published sampler paths so far = the policy version. */
  version: z.number().int().min(0).default(0),
  sampler_path: z.string().nullable().default(null),
  /** Last full training state (weights + optimizer), and the step it was saved at. */
  weights_path: z.string().nullable().default(null),
  weights_step: z.number().int().min(0).default(0),
});
export type TinkerState = z.infer<typeof StateSchema>;

/** Reads the state of `dir` (undefined when there is none); a damaged file is a clear error. */
export function readState(dir: string): TinkerState | undefined {
  const path = join(dir, STATE_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return StateSchema.parse(JSON.parse(text));
  } catch (err) {
    throw new OpenClawError(
      'data',
      `${path} is damaged (${(err as Error).message.slice(0, 200)}); fix or move it (tinker.resume: never starts from the base model)`,
    );
  }
}

/** Writes the state atomically. */
export function writeState(dir: string, state: TinkerState): void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, STATE_FILE);
  writeFileSync(`${path}.tmp`, JSON.stringify(state, null, 2));
  renameSync(`${path}.tmp`, path);
}
