// engines/tinker: real models trained and sampled through the Tinker API (hosted Tinker, or
// SkyRL's open server on your GPUs). See docs/tinker.md.
// In: the config's `tinker:` section (+ TINKER_BASE_URL / TINKER_API_KEY). Out: a TinkerClient
// (typed calls, futures, persisted seq_ids), a TinkerEngine (PolicyEngine: generate, score,
// trainStep, publish, save) and a teacher backend (`teacher.logprob_api: tinker`).
import type { Config } from '../../config/index.ts';
import { HOSTED_TINKER_URL, TinkerClient } from './client.ts';
import { TinkerEngine } from './engine.ts';

export { HOSTED_TINKER_URL, SEQ_FILE, TinkerClient, type AdamParams, type SampleRequest, type TinkerClientOptions } from './client.ts';
export { TinkerEngine, checkTinkerTrainOptions, type TinkerEngineOptions } from './engine.ts';
export { forwardBackwardBody, planForwardBackward, ppoLossFnConfig, toDatum, MAX_BYTES_PER_CALL, MAX_DATUMS_PER_CALL } from './datums.ts';
export { tinkerTeacherBackend } from './teacher.ts';
export { STATE_FILE, readState } from './state.ts';

/** Server URL and key from the config, else TINKER_BASE_URL / TINKER_API_KEY, else the hosted URL. */
export function tinkerEndpoint(config: Config, env: NodeJS.ProcessEnv = process.env): { baseUrl: string; apiKey: string | undefined } {
  return {
    baseUrl: config.tinker.base_url ?? env.TINKER_BASE_URL ?? HOSTED_TINKER_URL,
    apiKey: config.tinker.api_key ?? env.TINKER_API_KEY,
  };
}

/** A client for the config's Tinker server; seq_ids persist under output_dir. */
export function tinkerClientFromConfig(config: Config, opts: { onWarning?: (m: string) => void; timeoutMs?: number } = {}): TinkerClient {
  const { baseUrl, apiKey } = tinkerEndpoint(config);
  return new TinkerClient({
    baseUrl,
    apiKey,
    stateDir: config.output_dir,
    timeoutMs: opts.timeoutMs ?? config.tinker.timeout_s * 1000,
    onWarning: opts.onWarning,
  });
}

/** The policy engine of `rollout.provider: tinker`. */
export function tinkerEngineFromConfig(
  config: Config,
  opts: { onInfo?: (m: string) => void; onWarning?: (m: string) => void } = {},
): TinkerEngine {
  return new TinkerEngine({
    client: tinkerClientFromConfig(config, { onWarning: opts.onWarning }),
    baseModel: config.tinker.base_model!,
    loraRank: config.tinker.lora_rank,
    stateDir: config.output_dir,
    resume: config.tinker.resume,
    resumeFrom: config.tinker.resume_from,
    onInfo: opts.onInfo,
  });
}
