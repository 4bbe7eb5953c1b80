// The one place a config picks its teacher, by its row in TEACHER_PROVIDERS (providers.ts): an
// HTTP prompt-log-prob API (teacher.provider openai_compatible, logprob_api sglang/vllm), the
// in-process policy engine (teacher.provider embedded, when the caller has an engine), or the
// Tinker API (logprob_api tinker).
import { providerRow, type Config } from '../../config/index.ts';
import type { PolicyEngine } from '../../engines/types.ts';
import { TEACHER_PROVIDERS, type TeacherProviderSpec } from './providers.ts';
import type { Teacher } from './teacher.ts';

/** The row of `teacher.provider`; an unknown one (a config built by hand) is a config error naming the key. */
export function teacherProvider(config: Config): TeacherProviderSpec {
  return providerRow(TEACHER_PROVIDERS, config.teacher.provider, 'teacher.provider');
}

/**
 * The teacher `config` names, or null when it names none this caller can build (`embedded`
 * without an engine). The caller owns it and closes it; an engine teacher leaves the engine open.
 */
export function createTeacher(config: Config, opts: { engine?: PolicyEngine } = {}): Teacher | null {
  return teacherProvider(config).create(config, opts);
}

/**
 * The temperature the configured teacher's log-probs come at, as `createTeacher` builds it for a
 * training run. The trainer compares the policy with the teacher at this temperature.
 */
export function teacherLogprobTemperature(config: Config): number {
  return teacherProvider(config).logprobTemperature(config);
}
