// Tinker training configs of the tests (and the SIGKILL resume test's child process): binary RL on
// the Tinker server at `url` (base model `baseModel`), output in `out`, batch 1, save every step,
// the deterministic rules judge voting once. `rollout` adds to the rollout section (tokenizer …).
import { parseConfig } from '../../src/config/index.ts';

/** A Tinker training config; `rollout` keys are added to { provider: tinker, temperature: 1 }. */
export const tinkerTrainConfig = (url: string, out: string, baseModel: string, rollout: Record<string, unknown> = {}) =>
  parseConfig(
    {
      mode: 'openclaw-rl',
      output_dir: out,
      server: { port: 0 },
      rollout: { provider: 'tinker', temperature: 1, ...rollout },
      tinker: { base_url: url, base_model: baseModel },
      judge: { provider: 'rules' },
      scoring: { majority_vote: 1 },
      training: { batch_size: 1, save_interval: 1 },
    },
    { env: {} },
  );

/** The SIGKILL resume test's config (the test and its child process build the same one). */
export const childConfig = (url: string, out: string, baseModel: string) => tinkerTrainConfig(url, out, baseModel);
