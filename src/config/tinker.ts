// The `tinker:` section and the rules that apply when the Tinker API is the policy
// (`rollout.provider: tinker`) or the teacher (`teacher.logprob_api: tinker`). See docs/tinker.md.
import { z } from 'zod';
import { rolloutFacts } from './providers.ts';

/** Where and what to train through the Tinker API (hosted Tinker, or SkyRL's open server). */
export const TinkerSchema = z
  .object({
    /** Server root; default TINKER_BASE_URL, else the hosted service. SkyRL: http://HOST:8000. */
    base_url: z.string().url().optional(),
    /** Sent as X-API-Key; default TINKER_API_KEY. SkyRL ignores it. */
    api_key: z.string().optional(),
    /** Hugging Face id of the base model, e.g. Qwen/Qwen3-8B (must be in get_server_capabilities). */
    base_model: z.string().min(1).optional(),
    /** LoRA rank of the training model (SkyRL: 0 = full fine-tuning). */
    lora_rank: z.number().int().min(0).default(32),
    /**
     * `auto`: continue from the training state recorded in <output_dir>/tinker-state.json when there
     * is one (a new model whose first request loads it); `never`: always start from the base model.
     */
    resume: z.enum(['auto', 'never']).default('auto'),
    /** A tinker://…/weights/… path to start from when there is no recorded state. */
    resume_from: z.string().startsWith('tinker://').optional(),
    /** Total deadline of one call (queueing included). */
    timeout_s: z.number().positive().default(3600),
    /**
     * Which server this is (docs/tinker.md "Server profiles"): prompt-log-prob shape, loss
     * reduction, optimizer fields, idempotent calls. `auto` detects it from the server's answers.
     */
    server: z.enum(['auto', 'hosted', 'skyrl-jax', 'skyrl-train']).default('auto'),
  })
  .strict();

interface Checked {
  mode: string;
  rollout: { provider: string; temperature: number };
  teacher: { provider: string; logprob_api: string };
  training: { kl_coef: number; entropy_coef: number };
  scoring: { distill_topk: number };
  tinker: z.infer<typeof TinkerSchema>;
}

/** Config errors for the Tinker provider: what its `ppo` loss and learner cannot do. */
export function checkTinker(c: Checked, ctx: z.RefinementCtx): void {
  const issue = (path: string[], message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, path, message });
  const policy = rolloutFacts(c).reach === 'tinker';
  const teacher = c.teacher.logprob_api === 'tinker';
  if ((policy || teacher) && c.tinker.base_model === undefined) {
    issue(['tinker', 'base_model'], `required when ${policy ? 'rollout.provider' : 'teacher.logprob_api'} is tinker (e.g. Qwen/Qwen3-8B)`);
  }
  if (!policy) return;
  if (c.training.kl_coef > 0) issue(['training', 'kl_coef'], "must be 0 with rollout.provider tinker: Tinker's ppo loss has no KL term");
  if (c.training.entropy_coef > 0)
    issue(['training', 'entropy_coef'], "must be 0 with rollout.provider tinker: Tinker's ppo loss has no entropy term");
  if (c.scoring.distill_topk > 0)
    issue(['scoring', 'distill_topk'], "must be 0 with rollout.provider tinker: Tinker's ppo loss has no top-K distillation term");
  if (c.rollout.temperature !== 1) {
    issue(
      ['rollout', 'temperature'],
      `must be 1 with rollout.provider tinker (got ${c.rollout.temperature}): Tinker's learner computes log-probs at temperature 1, so samples drawn at another temperature would not have ratio 1 on-policy and PPO would clip the wrong tokens`,
    );
  }
}
