// Every way the Tinker servers we support differ, in one table (docs/tinker.md "Server profiles").
// The client and the engine never test a server's name: they read a field of its profile.
// Sources (read Aug 2026): the Python SDK thinking-machines-lab/tinker (0.18.0 = commit 30517b6,
// 0.25.0 = d595dc2) and SkyRL NovaSky-AI/SkyRL a956457 (skyrl/tinker/api.py, skyrl/backends/jax.py,
// skyrl/backends/skyrl_train_backend.py, skyrl/tx/utils/generator.py). Hosted Tinker's server is
// not public: its column is the SDK's contract, and what only the SDK's own behaviour implies is
// marked so in docs/tinker.md.
import { OpenClawError } from '../../errors/index.ts';

/** A server profile's name (`tinker.server`). */
export type TinkerServerName = 'hosted' | 'skyrl-jax' | 'skyrl-train';
/** The config's choice: a profile, or `auto` (detected from the server's answers). */
export type TinkerServerSetting = TinkerServerName | 'auto';
export const TINKER_SERVERS = ['auto', 'hosted', 'skyrl-jax', 'skyrl-train'] as const;

/** Calls on a training model that carry a seq_id (and create_model, which has model_seq_id). */
export type TinkerCallKind =
  | 'create_model'
  | 'forward_backward'
  | 'forward'
  | 'optim_step'
  | 'save_weights'
  | 'save_weights_for_sampler'
  | 'load_weights';

/** AdamW fields of optim_step. */
export type AdamField = 'learning_rate' | 'beta1' | 'beta2' | 'eps' | 'weight_decay' | 'grad_clip_norm';

export interface TinkerProfile {
  name: TinkerServerName;
  /**
   * Shape of `prompt_logprobs` for a prompt of P tokens. `leading-null`: P entries, entry i =
   * log p(token i | < i), entry 0 null. `shifted`: P − 1 entries, entry j = log p(token j+1 | ≤ j).
   */
  promptLogprobs: 'leading-null' | 'shifted';
  /**
   * How the learner reduces the per-token loss. `sum`: over tokens and datums (our sample mean is
   * folded into the advantages). `sequence-mean`: per datum Σ w·l / Σ w over `weights`, then the
   * mean over the datums accumulated before optim_step (we send `weights` = the response mask and
   * do not fold: that IS the sample mean).
   */
  reduction: 'sum' | 'sequence-mean';
  /** optim_step fields the server applies; any other configured value cannot be honoured. */
  adamFields: ReadonlySet<AdamField>;
  /** Metric keys: the learner's loss sum (forward_backward) and optim_step's grad norm, first found wins. */
  metrics: { loss: readonly string[]; gradNorm: readonly string[] };
  /** Calls the server dedupes when the identical request is submitted again (safe to resubmit). */
  idempotent: ReadonlySet<TinkerCallKind>;
  /** Whether a never-submitted seq_id may be skipped (false: a failed submit's id is reused). */
  seqGapsAllowed: boolean;
  /** `create_sampling_session` + `sampling_session_id` (else model_path / base_model per request). */
  samplingSessions: boolean;
  /** Whether `topk_prompt_logprobs` is answered. */
  topkPromptLogprobs: boolean;
  /**
   * Whether sampling from `tinker://<model>/sampler_weights/…` needs that training model loaded.
   * Then a resumed run cannot serve the previous process's sampler path: it loads the saved
   * state into its new model and publishes a sampler path of its own before serving.
   */
  samplerNeedsModel: boolean;
  /**
   * Whether sampling the served path goes through the training model's own weights, so trained
   * weights answer from their optim_step on, before any publish (the gate then detects a
   * regression after the fact; on_fail rollback restores the serving version).
   */
  servesTrainingWeights: boolean;
  /** Where a server-side setting replaces ours, a note for doctor / the log. */
  serverSide: readonly string[];
}

const ALL_ADAM: ReadonlySet<AdamField> = new Set(['learning_rate', 'beta1', 'beta2', 'eps', 'weight_decay', 'grad_clip_norm']);
// SkyRL dedupes (model_id, seq_id) in create_future (api.py L362-408), and only forward_backward,
// forward and optim_step pass their seq_id to it (api.py L1133-1139, L1151-1157, L1169-1175).
const SKYRL_IDEMPOTENT: ReadonlySet<TinkerCallKind> = new Set(['forward_backward', 'forward', 'optim_step']);

export const PROFILES: Readonly<Record<TinkerServerName, TinkerProfile>> = {
  hosted: {
    name: 'hosted',
    promptLogprobs: 'leading-null', // SDK types/sample_response.py
    reduction: 'sum', // docs /tinker/losses: every loss is a sum, never a mean
    adamFields: ALL_ADAM, // SDK types/optim_step_request.py AdamParams
    metrics: { loss: ['loss:sum'], gradNorm: ['grad_norm', 'optim:grad_norm'] },
    // The SDK resubmits every training call with its original seq_id (execute_with_retries around
    // one request, training_client.py L596-639 in 0.18.0) and create_model with its model_seq_id.
    idempotent: new Set([
      'create_model',
      'forward_backward',
      'forward',
      'optim_step',
      'save_weights',
      'save_weights_for_sampler',
      'load_weights',
    ]),
    // Hosted orders a model's work by seq_id: an id that never arrives would hold the queue.
    seqGapsAllowed: false,
    samplingSessions: true, // SDK sampling_client.py L174-234
    topkPromptLogprobs: true,
    // The SDK samples any saved sampler path with a fresh ServiceClient (create_sampling_client),
    // with no training client alive: saved sampler weights outlive their training model.
    samplerNeedsModel: false,
    servesTrainingWeights: false,
    serverSide: [],
  },
  'skyrl-jax': {
    name: 'skyrl-jax',
    promptLogprobs: 'shifted', // tx/utils/generator.py L229, L437-439; backends/jax.py L926-929
    reduction: 'sequence-mean', // backends/jax.py L406 (per datum over weights), L176-185 + L540 (mean over datums)
    // api.py AdamParams L664-678 has no grad_clip_norm; jax.py L812-818 applies the other four.
    adamFields: new Set(['learning_rate', 'beta1', 'beta2', 'eps', 'weight_decay']),
    // jax.py L783: forward_backward metrics are {}; L141-148: optim_step's.
    metrics: { loss: [], gradNorm: ['skyrl.ai/grad_norm'] },
    idempotent: SKYRL_IDEMPOTENT,
    seqGapsAllowed: true, // api.py checks no order or gap: calls run in arrival order
    samplingSessions: true, // api.py L939-958, L1301-1309
    topkPromptLogprobs: false, // jax.py L916-922
    // jax.py L1024-1040: a sampler checkpoint is loaded into its training model's adapter slot
    // (self.models[model_id]); after unload_model (engine.py L526-540) that model is gone.
    samplerNeedsModel: true,
    // jax.py L1001-1040: save_sampler_checkpoint does not mark the saved weights as loaded, and a
    // sample whose checkpoint id equals the loaded one is not reloaded: the adapter answers.
    servesTrainingWeights: true,
    serverSide: ['LoRA slots: backend_config max_lora_adapters (one is the base model; jax.py L574-578)'],
  },
  'skyrl-train': {
    name: 'skyrl-train',
    // vLLM's P entries with None first, passed through (backends/utils.py L27-56).
    promptLogprobs: 'leading-null',
    // ppo_utils.py reduce_loss L1145-1149 sums (loss · loss_mask); the Tinker path never calls
    // apply_loss_reduction_to_advantages_minibatch (only skyrl/train/trainer.py L1497 does), and
    // worker.py L1082-1091 multiplies by dp_size to keep the sum across ranks.
    reduction: 'sum',
    // skyrl_train_backend.py L1030-1033: only the learning rate is set per step; betas, eps and
    // weight decay are fixed at optimizer creation, clipping is trainer.policy.optimizer_config.
    adamFields: new Set(['learning_rate']),
    metrics: { loss: ['pg_loss:sum', 'total_loss:sum'], gradNorm: ['skyrl.ai/grad_norm'] }, // L777-782, L1038-1041
    idempotent: SKYRL_IDEMPOTENT,
    seqGapsAllowed: true,
    samplingSessions: true,
    topkPromptLogprobs: true, // L1213-1214 (vLLM)
    // Sampling resolves the model's role (L172-186), which unload_model removes (L585-589).
    samplerNeedsModel: true,
    // Sampling is vLLM's, whose weights change only when save_sampler_checkpoint broadcasts them
    // (skyrl_train_backend.py save_sampler_checkpoint: "Sync weights to colocated inference engines").
    servesTrainingWeights: false,
    serverSide: [
      'gradient clipping: trainer.policy.optimizer_config.max_grad_norm of the server (default 1.0; skyrl/train/config/config.py L196)',
      'AdamW betas, eps and weight decay: the server backend_config (skyrl_train_backend.py L1031)',
    ],
  },
};

/** The profile of a name. */
export function profileOf(name: TinkerServerName): TinkerProfile {
  return PROFILES[name];
}

/** What the client knows about a server: its profile and why it was chosen. */
export interface DetectedServer {
  profile: TinkerProfile;
  /** How it was chosen: "configured" or the answers that identified it. */
  reason: string;
  /** `client/config` flags the server sent (JSON stays our wire whatever they say). */
  flags: Record<string, unknown>;
}

/** A configured training setting this server cannot honour, with why. */
export interface Unhonoured {
  key: string;
  why: string;
}

/** Settings of `training.*` that map onto optim_step (the engine's TrainOptions names). */
export interface OptimSettings {
  maxGradNorm: number;
  weightDecay: number;
}

/**
 * The configured optimizer settings this profile ignores. Only values that differ from "off"
 * count: max_grad_norm 0 (no clipping) or weight_decay 0 are honoured by a server without them.
 */
export function unhonouredSettings(profile: TinkerProfile, s: OptimSettings): Unhonoured[] {
  const out: Unhonoured[] = [];
  if (s.maxGradNorm > 0 && !profile.adamFields.has('grad_clip_norm')) {
    out.push({
      key: 'training.max_grad_norm',
      why:
        profile.name === 'skyrl-train'
          ? `is ${s.maxGradNorm}, but ${profile.name} clips with its own trainer.policy.optimizer_config.max_grad_norm (optim_step has no grad_clip_norm)`
          : `is ${s.maxGradNorm}, but ${profile.name}'s optim_step has no grad_clip_norm: training runs unclipped`,
    });
  }
  if (s.weightDecay > 0 && !profile.adamFields.has('weight_decay')) {
    out.push({
      key: 'training.weight_decay',
      why: `is ${s.weightDecay}, but ${profile.name} sets weight decay server-side (optim_step applies only the learning rate)`,
    });
  }
  return out;
}

/** Pads/validates prompt_logprobs to the SDK's P-entry shape (entry 0 null). */
export function alignPromptLogprobs(
  profile: TinkerProfile,
  values: ReadonlyArray<number | null>,
  promptLength: number,
): Array<number | null> {
  if (profile.promptLogprobs === 'leading-null') return values as Array<number | null>;
  // shifted: entry j is log p(token j+1): put the missing null for token 0 in front.
  if (values.length !== promptLength - 1) {
    throw new OpenClawError(
      'upstream',
      `Tinker (${profile.name}) returned ${values.length} prompt log-probs for ${promptLength} tokens; this profile answers P − 1 (set tinker.server to the server you run)`,
      { code: 'tinker_bad_answer' },
    );
  }
  return [null, ...values];
}
