// The teacher providers (`teacher.provider`), one row each: how the teacher is built, the
// temperature its log-probs come at, and whether it is the policy engine itself (then the policy
// side builds it beside the engine). Adding a teacher provider is its own backend file, a row here
// and its name in the config schema; a new HTTP log-prob dialect is only an entry in dialects.ts.
import { rolloutFacts, type Config } from '../../config/index.ts';
import { logprobTemperature, type PolicyEngine } from '../../engines/types.ts';
import { tinkerClientFromConfig } from '../../engines/tinker/index.ts';
import { engineTeacherBackend } from './engine.ts';
import { HTTP_DIALECTS } from './dialects.ts';
import { createHttpTeacher } from './http.ts';
import { teacherFromBackend, type Teacher } from './teacher.ts';
import { tinkerTeacherBackend } from './tinker.ts';

export interface TeacherProviderSpec {
  /** The policy engine scores as the teacher (with the hint in view): built where the engine is. */
  onPolicyEngine: boolean;
  /** The teacher, or null when this caller cannot build it (an engine teacher without an engine). */
  create(config: Config, opts: { engine?: PolicyEngine }): Teacher | null;
  /** The temperature its log-probs come at (the trainer compares the policy with them there). */
  logprobTemperature(config: Config): number;
}

const openaiCompatible: TeacherProviderSpec = {
  onPolicyEngine: false,
  create(config) {
    const t = config.teacher;
    return createHttpTeacher({
      baseUrl: t.base_url!,
      apiKey: t.api_key,
      model: t.model_id,
      // The schema allows only sglang/vllm here; anything else is refused by createHttpTeacher.
      dialect: t.logprob_api as 'sglang' | 'vllm',
      temperature: config.rollout.temperature,
      maxConcurrency: t.max_concurrency,
      timeoutMs: t.timeout_s * 1000,
    });
  },
  // SGLang and vLLM report T = 1 whatever temperature is asked (dialects.ts).
  logprobTemperature: (config) => HTTP_DIALECTS[config.teacher.logprob_api as 'sglang' | 'vllm'].logprobTemperature,
};

const embedded: TeacherProviderSpec = {
  onPolicyEngine: true,
  create(config, opts) {
    const t = config.teacher;
    const bound = { maxConcurrency: t.max_concurrency };
    if (opts.engine !== undefined) return teacherFromBackend(engineTeacherBackend(opts.engine, config.rollout.temperature), bound);
    if (t.logprob_api === 'tinker') {
      // The teacher model is a base model id or a tinker:// sampler path (default tinker.base_model).
      const backend = tinkerTeacherBackend(tinkerClientFromConfig(config), t.model_id ?? config.tinker.base_model!, { ownsClient: true });
      return teacherFromBackend(backend, bound);
    }
    return null;
  },
  // The engine scores at the rollout's temperature where it is the embedded model; Tinker's sampler reports T = 1.
  logprobTemperature: (config) =>
    rolloutFacts(config).logprobsAt === 'sampling_temperature' ? logprobTemperature(config.rollout.temperature) : 1,
};

export const TEACHER_PROVIDERS: Readonly<Record<Config['teacher']['provider'], TeacherProviderSpec>> = {
  openai_compatible: openaiCompatible,
  embedded,
};
