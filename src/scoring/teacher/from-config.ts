// The one place a config picks its teacher: an HTTP prompt-log-prob API (teacher.provider
// openai_compatible, logprob_api sglang/vllm), the in-process policy engine (teacher.provider
// embedded, when the caller has an engine), or the Tinker API (logprob_api tinker).
import type { Config } from '../../config/index.ts';
import { logprobTemperature, type PolicyEngine } from '../../engines/types.ts';
import { tinkerClientFromConfig } from '../../engines/tinker/index.ts';
import { engineTeacherBackend } from './engine.ts';
import { HTTP_DIALECTS } from './dialects.ts';
import { createHttpTeacher } from './http.ts';
import { teacherFromBackend, type Teacher } from './teacher.ts';
import { tinkerTeacherBackend } from './tinker.ts';

/**
 * The teacher `config` names, or null when it names none this caller can build (`embedded`
 * without an engine). The caller owns it and closes it; an engine teacher leaves the engine open.
 */
export function createTeacher(config: Config, opts: { engine?: PolicyEngine } = {}): Teacher | null {
  const t = config.teacher;
  const bound = { maxConcurrency: t.max_concurrency };
  if (t.provider === 'openai_compatible') {
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
  }
  if (opts.engine !== undefined) return teacherFromBackend(engineTeacherBackend(opts.engine, config.rollout.temperature), bound);
  if (t.logprob_api === 'tinker') {
    // The teacher model is a base model id or a tinker:// sampler path (default tinker.base_model).
    const backend = tinkerTeacherBackend(tinkerClientFromConfig(config), t.model_id ?? config.tinker.base_model!, { ownsClient: true });
    return teacherFromBackend(backend, bound);
  }
  return null;
}

/**
 * The temperature the configured teacher's log-probs come at, as `createTeacher` builds it for a
 * training run: SGLang, vLLM and Tinker report T = 1 whatever temperature is asked (dialects.ts);
 * the embedded teacher is the policy engine scoring at the rollout's temperature. The trainer
 * compares the policy with the teacher at this temperature.
 */
export function teacherLogprobTemperature(config: Config): number {
  if (config.teacher.provider === 'openai_compatible')
    return HTTP_DIALECTS[config.teacher.logprob_api as 'sglang' | 'vllm'].logprobTemperature;
  // An embedded teacher is the engine itself on an embedded rollout, Tinker's sampler otherwise.
  return config.rollout.provider === 'embedded' ? logprobTemperature(config.rollout.temperature) : 1;
}
