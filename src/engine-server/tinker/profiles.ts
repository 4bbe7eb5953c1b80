// Server profiles of the embedded Tinker stand-in: each reproduces how one real Tinker server
// behaves on the wire and in its learner, read from that server's source (issue 23). The table
// below is the one place a difference lives; service.ts, routes.ts, handler.ts and learner.ts read
// it. Citations are to NovaSky-AI/SkyRL at a956457 (Aug 2026) and to the Python SDK
// thinking-machines-lab/tinker 0.25 (d595dc2); docs/tinker-local.md has the same table in words.
//
// hosted       Thinking Machines' service as the SDK sees it: seq_id-ordered calls, try_again /
//              408 / 410 futures, {error, category} failures, SUM losses, grad_clip_norm honoured,
//              prompt_logprobs with P entries (null first; tinker/types/sample_response.py).
// skyrl-jax    SkyRL's API (skyrl/tinker/api.py) + engine (engine.py) + JAX backend
//              (skyrl/backends/jax.py): per-sequence mean over `weights`, mean over datums,
//              grad_clip_norm ignored, P−1 prompt log-probs, LoRA slots (max_lora_adapters).
// skyrl-train  SkyRL's API + engine + SkyRL-Train backend (FSDP/Megatron + vLLM,
//              skyrl/backends/skyrl_train_backend.py): SUM over tokens and datums weighted by
//              `weights`, only the learning rate taken from adam_params (betas, weight decay and
//              clipping fixed server-side), vLLM prompt log-probs (P entries, null first).

import { OpenClawError } from '../../errors/index.ts';

/**
 * An HTTP error answered as FastAPI does, `{"detail": <detail>}` and nothing else: SkyRL's
 * HTTPException (a string) and request validation errors (422, a list of issues).
 */
export class DetailError extends OpenClawError {
  constructor(
    status: number,
    readonly detail: unknown,
  ) {
    super(
      status === 404 ? 'not_found' : status >= 500 ? 'internal' : 'invalid_request',
      typeof detail === 'string' ? detail : JSON.stringify(detail),
      {
        status,
      },
    );
  }
}

/** FastAPI's 422 for one bad or missing body field (loc starts at "body"). */
export function unprocessable(loc: (string | number)[], msg: string, type = 'value_error', input: unknown = undefined): DetailError {
  return new DetailError(422, [{ type, loc: ['body', ...loc], msg, input: input ?? null }]);
}

/** The profiles the stand-in can emulate. */
export const TINKER_PROFILES = ['hosted', 'skyrl-jax', 'skyrl-train'] as const;
export type TinkerProfileName = (typeof TINKER_PROFILES)[number];

/** How forward_backward turns per-token losses into the gradient. */
export type Reduction =
  /** Σ over positions and datums; `weights` only enter cross_entropy (hosted docs /losses). */
  | 'sum'
  /** Σ over positions and datums of loss·weights, for every loss (skyrl ppo_utils reduce_loss). */
  | 'weighted_sum'
  /** per datum Σ loss·w / max(Σ w, 1e-9), summed; optim_step divides by the datums accumulated (jax.py L406, L176-185, L540). */
  | 'seq_mean_then_datum_mean';

/** Where the optimizer's settings come from. */
export type OptimizerSource =
  /** Every adam_params field, grad_clip_norm included (SDK optim_step_request.py). */
  | 'request'
  /** adam_params without grad_clip_norm (api.py L664-678, a field the model does not have: ignored); no clipping (jax.py L533-555). */
  | 'request_no_clip'
  /** Only learning_rate (skyrl_train_backend.py L1030-1035); AdamW betas (0.9, 0.999), weight decay 0.01, clip 1.0 from SkyRL-Train's OptimizerConfig (skyrl/train/config/config.py L187-197). */
  | 'server_config';

/** One profile's behaviour. */
export interface TinkerProfile {
  name: TinkerProfileName;
  /** SkyRL's API server (FastAPI + its DB), as opposed to the hosted service. */
  skyrl: boolean;
  /** `leading_null`: P entries, entry 0 null. `p_minus_1`: P−1 entries, entry j = log p(token j+1) (generator.py L229, L437-439). */
  promptLogprobs: 'leading_null' | 'p_minus_1';
  /** Whether topk_prompt_logprobs is served (JAX refuses it: jax.py L915-923). */
  topkPromptLogprobs: boolean;
  reduction: Reduction;
  /** Log-ratio clamp before exp in importance_sampling / ppo (SkyRL-Train safe_exp_delta clip=20, ppo_utils.py L567; the JAX loss has none, loss_fns.py L44, L56). */
  logRatioClamp: number | null;
  optimizer: OptimizerSource;
  /** optim_step metric names. */
  optimMetrics: 'hosted' | 'skyrl';
  /** Which calls (model_id, seq_id) deduplicates; null = every seq-numbered call (hosted). SkyRL: api.py L362-408 and the three create_future callers that pass seq_id. */
  idempotentOps: ReadonlySet<string> | null;
  /** Calls on one model run in seq_id order (hosted) or in arrival order (SkyRL's request_id order, engine.py L380-511). */
  order: 'seq_id' | 'arrival';
  /** LoRA slot rule at create_model. */
  lora: 'none' | 'slots' | 'signature';
  /** Default max_lora_adapters (jax.py L70: 32, one of them the base). */
  defaultMaxLoraAdapters: number | null;
  /** max_lora_rank (jax.py L71). */
  maxLoraRank: number | null;
}

const SKYRL_IDEMPOTENT = new Set(['forward_backward', 'forward', 'optim_step']);

/** The profile table. */
export const PROFILES: Record<TinkerProfileName, TinkerProfile> = {
  hosted: {
    name: 'hosted',
    skyrl: false,
    promptLogprobs: 'leading_null',
    topkPromptLogprobs: true,
    reduction: 'sum',
    logRatioClamp: 20,
    optimizer: 'request',
    optimMetrics: 'hosted',
    idempotentOps: null,
    order: 'seq_id',
    lora: 'none',
    defaultMaxLoraAdapters: null,
    maxLoraRank: null,
  },
  'skyrl-jax': {
    name: 'skyrl-jax',
    skyrl: true,
    promptLogprobs: 'p_minus_1',
    topkPromptLogprobs: false,
    reduction: 'seq_mean_then_datum_mean',
    logRatioClamp: null,
    optimizer: 'request_no_clip',
    optimMetrics: 'skyrl',
    idempotentOps: SKYRL_IDEMPOTENT,
    order: 'arrival',
    lora: 'slots',
    defaultMaxLoraAdapters: 32,
    maxLoraRank: 32,
  },
  'skyrl-train': {
    name: 'skyrl-train',
    skyrl: true,
    promptLogprobs: 'leading_null',
    topkPromptLogprobs: true,
    reduction: 'weighted_sum',
    logRatioClamp: 20,
    optimizer: 'server_config',
    optimMetrics: 'skyrl',
    idempotentOps: SKYRL_IDEMPOTENT,
    order: 'arrival',
    lora: 'signature',
    defaultMaxLoraAdapters: null,
    maxLoraRank: null,
  },
};

/** SkyRL-Train's fixed optimizer (OptimizerConfig defaults; eps is torch AdamW's default). */
export const SKYRL_TRAIN_OPTIMIZER = { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01, gradClipNorm: 1.0, initialLr: 1e-6 };

/** SkyRL's session reaper defaults (skyrl/tinker/config.py L61-70). */
export const SKYRL_SESSION_TIMEOUT_MS = 300_000;
export const SKYRL_SESSION_CLEANUP_MS = 60_000;

/** What GET / answers on SkyRL's server (api.py L1692-1720): a detection signal. */
export const SKYRL_ROOT = {
  name: 'Tinker API Mock',
  version: '0.0.1',
  endpoints: {
    models: ['/api/v1/create_model', '/api/v1/get_info', '/api/v1/training_runs/{model_id}'],
    training: ['/api/v1/forward_backward', '/api/v1/optim_step'],
    futures: ['/api/v1/retrieve_future'],
    service: ['/api/v1/get_server_capabilities'],
    telemetry: ['/api/v1/telemetry'],
    checkpoints: [
      '/api/v1/training_runs/{unique_id}/checkpoints',
      'DELETE /api/v1/training_runs/{unique_id}/checkpoints/weights/{checkpoint_id}',
      'DELETE /api/v1/training_runs/{unique_id}/checkpoints/sampler_weights/{checkpoint_id}',
    ],
    download: [
      '/api/v1/training_runs/{unique_id}/checkpoints/{checkpoint_id}/archive',
      '/api/v1/training_runs/{unique_id}/checkpoints/{checkpoint_id}/download',
    ],
  },
};

/**
 * client/config answers. SkyRL: only pjwt_auth_enabled (api.py L895-902). Hosted: the flags the
 * SDK reads (types/client_config_response.py), with the wire features this JSON-only stand-in
 * lacks switched off.
 */
export function clientConfig(profile: TinkerProfile): Record<string, unknown> {
  if (profile.skyrl) return { pjwt_auth_enabled: false };
  return {
    pjwt_auth_enabled: false,
    credential_default_source: 'api_key',
    sample_dispatch_bytes_semaphore_size: 10 * 1024 * 1024,
    inflight_response_bytes_semaphore_size: 50 * 1024 * 1024,
    parallel_fwdbwd_chunks: true,
    proto_write_fwdbwd: false,
    proto_compress_fwdbwd: false,
    fwdbwd_max_chunk_len: 1024,
    fwdbwd_max_chunk_bytes_count: 5_000_000,
    fwdbwd_dispatch_bytes_semaphore_size: 50_000_000,
    billing_exception_max_pause_duration_sec: 3600,
    sample_no_retries: false,
    sample_enable_stuck_detection: true,
    sample_max_concurrent_requests: 2000,
    use_pyqwest_transport: false,
    create_model_via_load_weights: false,
  };
}

/** Parses a --profile value. */
export function profileByName(name: string): TinkerProfile | undefined {
  return (PROFILES as Record<string, TinkerProfile>)[name];
}
