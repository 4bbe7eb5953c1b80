// The teacher term of the advantage is teacher_t − policy_t, so both log-probs must come at one
// temperature. The rollout records log-probs at its sampling temperature T; SGLang, vLLM and
// Tinker teachers report them at T = 1 (scoring/teacher/dialects.ts). When the two differ, the
// trainer rescores each distillation sample's answer with the weights about to be trained, at
// the teacher's temperature, and the teacher term compares against those (the PPO ratio still
// uses the rollout's own log-probs). One forward pass per such sample, only in that setup.
import type { Config } from '../config/index.ts';
import { logprobTemperature, type ScoreRequest, type ScoreResult } from '../engines/types.ts';
import { modeSpec } from '../methods/index.ts';
import type { StoredSample } from '../samples/index.ts';
import { teacherLogprobTemperature } from '../scoring/index.ts';

/** The temperature to rescore the policy at for the teacher term, or undefined when the rollout's log-probs already match the teacher's. */
export function opdRescoreTemperature(config: Config): number | undefined {
  if (modeSpec(config.mode).advantage.teacher === 'off') return undefined;
  const teacherT = teacherLogprobTemperature(config);
  return teacherT === logprobTemperature(config.rollout.temperature) ? undefined : teacherT;
}

/**
 * Per sample, the policy's log-probs of its answer at the teacher's temperature (null where the
 * sample has no teacher log-probs or is masked, or where no rescoring is needed at all).
 */
export async function studentLogprobsForOpd(
  samples: readonly StoredSample[],
  config: Config,
  score: (req: ScoreRequest) => Promise<ScoreResult>,
): Promise<Array<number[] | null>> {
  const temperature = opdRescoreTemperature(config);
  const out: Array<number[] | null> = [];
  for (const s of samples) {
    const needed = temperature !== undefined && s.lossMask === 1 && s.teacherLogprobs !== null;
    out.push(needed ? (await score({ promptIds: s.promptIds, responseIds: s.responseIds, temperature })).logprobs : null);
  }
  return out;
}
