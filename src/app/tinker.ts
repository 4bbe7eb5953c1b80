// The engine for `rollout.provider: tinker`: a TinkerEngine (sampling, scoring, training through
// the Tinker API), started only against a server that answers. policy.ts serves it to agents with
// tokenPolicy: the base model's own chat template and tokenizer from rollout.tokenizer (a Hugging
// Face folder or an embedded checkpoint), incremental prompt encoding, Qwen3/Hermes tool calls and
// think blocks. The sampled ids and log-probs are recorded as returned, never re-tokenised.
import type { Config } from '../config/index.ts';
import { OpenClawError } from '../errors/index.ts';
import { tinkerEngineFromConfig, type TinkerEngine } from '../engines/tinker/index.ts';
import type { ResumePlan } from '../trainer/index.ts';

/** Starts the Tinker engine; a missing tokenizer folder is a config error naming what to set. */
export async function startTinkerEngine(config: Config, warn: (message: string) => void, resume?: ResumePlan): Promise<TinkerEngine> {
  if (config.rollout.tokenizer === undefined) {
    throw new OpenClawError(
      'config',
      `rollout.tokenizer: with rollout.provider tinker, set a local folder holding ${config.tinker.base_model}'s tokenizer.json and tokenizer_config.json (its chat template renders the prompts Tinker samples from), or the checkpoint folder of the embedded Tinker server's model`,
      { param: 'rollout.tokenizer' },
    );
  }
  const engine = tinkerEngineFromConfig(config, {
    onWarning: warn,
    onInfo: warn,
    resume: resume !== undefined ? { dir: resume.from?.dir, version: resume.version } : undefined,
  });
  // Start only against a server that answers and offers the base model (exit 3 with the reason
  // otherwise), as `train` and `api-server` would otherwise serve 502s forever.
  try {
    warn(`tinker: ${await engine.checkServer()}`);
    const resumed = await engine.prepareResume();
    if (resumed !== undefined) warn(`tinker: resume: ${resumed}`);
  } catch (err) {
    await engine.close().catch(() => undefined);
    if (err instanceof OpenClawError && (err.kind.startsWith('upstream') || err.kind === 'authentication' || err.kind === 'not_found')) {
      throw new OpenClawError(err.kind, `rollout.provider tinker: ${err.message}`, { code: err.code, cause: err });
    }
    throw err;
  }
  return engine;
}
