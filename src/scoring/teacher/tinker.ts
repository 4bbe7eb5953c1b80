// The Tinker API as the teacher (`teacher.logprob_api: tinker`): prompt log-probs of the hinted
// prompt + the student's exact response ids on the teacher model (a base model id, or a tinker://
// sampler path), from one `asample` with prompt_logprobs and max_tokens 1. Log-probs are at T = 1.
// Top-K comes from `topk_prompt_logprobs`, which the hosted service answers and SkyRL's JAX
// backend refuses: that refusal becomes an error that says to set scoring.distill_topk: 0.
import { OpenClawError } from '../../errors/index.ts';
import { responseLogprobs, type SampleResult, type TinkerClient } from '../../engines/tinker/index.ts';
import { teacherMismatch, type TeacherBackend } from './teacher.ts';

/** A teacher backend scoring on `model` (base model id or tinker:// sampler path). */
export function tinkerTeacherBackend(client: TinkerClient, model: string, opts: { ownsClient?: boolean } = {}): TeacherBackend {
  const target = model.startsWith('tinker://') ? { modelPath: model } : { baseModel: model };
  return {
    dialect: 'tinker',
    logprobTemperature: 1,
    async score(promptIds, responseIds, topK) {
      let r: SampleResult;
      try {
        r = await client.sample({
          promptIds: [...promptIds, ...responseIds],
          maxTokens: 1,
          temperature: 1,
          promptLogprobs: true,
          topkPromptLogprobs: topK ?? 0,
          ...target,
        });
      } catch (err) {
        if (topK !== undefined && err instanceof OpenClawError && /topk|top_k|top-k/i.test(err.message)) {
          throw new OpenClawError(
            'config',
            `this Tinker server refuses top-K prompt log-probs (${err.message}); set scoring.distill_topk: 0`,
            { param: 'scoring.distill_topk', cause: err },
          );
        }
        throw err;
      }
      return responseLogprobs(r, promptIds.length, responseIds.length, topK, (d) => teacherMismatch('tinker', d));
    },
    close: () => (opts.ownsClient ? client.close() : Promise.resolve()),
  };
}
