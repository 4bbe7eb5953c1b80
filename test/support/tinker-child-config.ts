// The config of the SIGKILL resume test, shared by the test and its child process.
import { parseConfig } from '../../src/config/index.ts';

/** A Tinker training config on `url` (base model `baseModel`) with output in `out`: batch 1, save every step. */
export const childConfig = (url: string, out: string, baseModel: string) =>
  parseConfig(
    {
      mode: 'openclaw-rl',
      output_dir: out,
      rollout: { provider: 'tinker', temperature: 1 },
      tinker: { base_url: url, base_model: baseModel },
      training: { batch_size: 1, save_interval: 1 },
    },
    { env: {} },
  );
