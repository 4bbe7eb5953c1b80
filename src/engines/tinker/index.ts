// engines/tinker: real models trained and sampled through the Tinker API (hosted Tinker, or
// SkyRL's open server on your GPUs). See docs/tinker.md.
// In: the config's `tinker:` section (+ TINKER_BASE_URL / TINKER_API_KEY). Out: a TinkerClient
// (typed calls, futures, persisted seq_ids), a TinkerEngine (PolicyEngine: generate, score,
// trainStep, publish, save) and prompt log-probs read from a sample (for scoring/teacher/tinker.ts).
import type { Config } from '../../config/index.ts';
import { HOSTED_TINKER_URL, TinkerClient } from './client.ts';
import { legacyWeightsPath, readTinkerCheckpoint, LEGACY_STATE_FILE } from './state.ts';
import { TinkerEngine } from './engine.ts';

export {
  PROFILES,
  TINKER_SERVERS,
  profileOf,
  unhonouredSettings,
  type DetectedServer,
  type TinkerProfile,
  type TinkerServerName,
  type TinkerServerSetting,
} from './profiles.ts';
export {
  HOSTED_TINKER_URL,
  SDK_VERSION,
  SEQ_FILE,
  TinkerClient,
  type AdamParams,
  type SampleRequest,
  type TinkerClientOptions,
} from './client.ts';
export { TinkerEngine, checkTinkerTrainOptions, type TinkerEngineOptions } from './engine.ts';
export { forwardBackwardBody, planForwardBackward, ppoLossFnConfig, toDatum, MAX_BYTES_PER_CALL, MAX_DATUMS_PER_CALL } from './datums.ts';
export { responseLogprobs } from './logprobs.ts';
export type { SampleResult } from './wire.ts';
export { CHECKPOINT_FILE, LEGACY_STATE_FILE, readTinkerCheckpoint, type TinkerCheckpoint } from './state.ts';

/** Server URL and key from the config, else TINKER_BASE_URL / TINKER_API_KEY, else the hosted URL. */
export function tinkerEndpoint(config: Config, env: NodeJS.ProcessEnv = process.env): { baseUrl: string; apiKey: string | undefined } {
  return {
    baseUrl: config.tinker.base_url ?? env.TINKER_BASE_URL ?? HOSTED_TINKER_URL,
    apiKey: config.tinker.api_key ?? env.TINKER_API_KEY,
  };
}

/** A client for the config's Tinker server; seq_ids persist under output_dir. */
export function tinkerClientFromConfig(
  config: Config,
  opts: { onWarning?: (m: string) => void; onInfo?: (m: string) => void; timeoutMs?: number } = {},
): TinkerClient {
  const { baseUrl, apiKey } = tinkerEndpoint(config);
  return new TinkerClient({
    baseUrl,
    apiKey,
    stateDir: config.output_dir,
    timeoutMs: opts.timeoutMs ?? config.tinker.timeout_s * 1000,
    onWarning: opts.onWarning,
    onInfo: opts.onInfo,
    server: config.tinker.server,
    baseModel: config.tinker.base_model,
  });
}

/** The policy engine of `rollout.provider: tinker`. */
export function tinkerEngineFromConfig(
  config: Config,
  opts: {
    onInfo?: (m: string) => void;
    onWarning?: (m: string) => void;
    /** The checkpoint folder to continue from and the version to serve it as (trainer/resume.ts). */
    resume?: { dir: string | undefined; version: number };
  } = {},
): TinkerEngine {
  const checkpoint = opts.resume?.dir !== undefined ? readTinkerCheckpoint(opts.resume.dir) : undefined;
  if (checkpoint === undefined && config.tinker.resume_from === undefined) {
    const legacy = legacyWeightsPath(config.output_dir);
    if (legacy !== undefined) {
      opts.onWarning?.(
        `${config.output_dir}/${LEGACY_STATE_FILE} (written by an earlier openclaw-rl) is not resumed automatically: its sampler and training state may disagree. To continue from its training state, set tinker.resume_from: ${legacy}`,
      );
    }
  }
  return new TinkerEngine({
    client: tinkerClientFromConfig(config, { onWarning: opts.onWarning, onInfo: opts.onInfo }),
    baseModel: config.tinker.base_model!,
    loraRank: config.tinker.lora_rank,
    stateDir: config.output_dir,
    resume: checkpoint !== undefined ? { checkpoint, version: opts.resume!.version } : undefined,
    startVersion: opts.resume?.version,
    resumeFrom: checkpoint === undefined ? config.tinker.resume_from : undefined,
    onInfo: opts.onInfo,
  });
}
