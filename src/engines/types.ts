// The engine seam (docs/design.md §3). Two views of a policy:
//  - ChatChannel: OpenAI chat completions in and out. The gateway only ever talks to this, so
//    an HTTP upstream (SGLang/vLLM/any OpenAI server) and the in-process embedded model look
//    the same to it.
//  - PolicyEngine: token-level operations used by scoring and training: generate, score given
//    response tokens under a prompt, train on a batch, publish weights, save/load.
// Remote engines implement generate/score over HTTP; their training happens elsewhere.

import type { JsonObject } from '../raw-json/json-text.ts';

/** One OpenAI chat message as it arrives; unknown fields are kept. */
export interface ChatMessage {
  role: string;
  content?: string | Array<Record<string, unknown>> | null;
  tool_calls?: Array<Record<string, unknown>>;
  tool_call_id?: string;
  name?: string;
  [key: string]: unknown;
}

/** Per-position top-K alternatives: token ids and their log-probs, best first. */
export interface TopK {
  ids: Int32Array | number[];
  logprobs: Float32Array | number[];
}

/** Result of sampling a response from token ids. Log-probs are log_softmax(logits / T). */
export interface GenerateResult {
  tokenIds: number[];
  logprobs: number[];
  finishReason: 'stop' | 'length';
  /** Policy version whose weights produced these tokens. */
  version: number;
}

export interface GenerateRequest {
  promptIds: number[];
  maxTokens: number;
  temperature: number;
  topP?: number;
  /** Token ids that end generation. */
  stopTokenIds?: number[];
  /**
   * Whether the stop token that ended generation is the last entry of `tokenIds`/`logprobs`
   * (default true, as vLLM and SGLang report it): RL trains the end-of-turn decision too.
   */
  includeStopToken?: boolean;
  seed?: number;
  signal?: AbortSignal;
}

/**
 * The temperature an engine's log-probs are at for sampling temperature T: T itself, or 1 for
 * greedy decoding (T = 0), for sampled tokens and for `score` alike.
 */
export function logprobTemperature(temperature: number): number {
  return temperature > 0 ? temperature : 1;
}

export interface ScoreRequest {
  promptIds: number[];
  responseIds: number[];
  temperature: number;
  /** When set, also return the top-K log-probs at each response position. */
  topK?: number;
}

/** Log-probs of the given response tokens (one per response token, never padded). */
export interface ScoreResult {
  logprobs: number[];
  topK?: TopK[];
  version: number;
}

/** Loss settings of one training step (docs/design.md §2). */
export interface LossConfig {
  clipRatio: number; // ε, default 0.2
  clipRatioHigh: number; // ε_high, default 0.28
  klCoef: number; // coefficient of low_var_kl to the reference policy, default 0
  entropyCoef: number; // default 0
  /** Weight of the optional top-K reverse-KL distillation term (0 = off). */
  distillTopKCoef: number;
}

/** One sample as the engine trains on it: advantages are already computed by rl/. */
export interface TrainSample {
  promptIds: number[];
  responseIds: number[];
  /** Behaviour log-probs (logπ_old) stored at rollout time, one per response token. */
  rolloutLogprobs: number[];
  /** Per-token advantage A_t, one per response token. */
  advantages: number[];
  /** 1 = token contributes to the loss. */
  lossMask: number[];
  /** Teacher top-K (ids + log-probs) per response token, for the optional distillation term. */
  teacherTopK?: TopK[];
}

export interface TrainOptions {
  loss: LossConfig;
  lr: number;
  epochs: number;
  minibatches: number;
  maxGradNorm: number;
  weightDecay: number;
  temperature: number;
}

/** Numbers from one training step; names are the metric keys of docs/design.md §4. */
export interface TrainStepMetrics {
  pg_loss: number;
  pg_clipfrac: number;
  ppo_kl: number;
  entropy: number;
  kl_loss: number;
  grad_norm: number;
  train_rollout_logprob_abs_diff: number;
  tokens: number;
  [key: string]: number;
}

/** Token-level operations on a policy (docs/design.md §3). */
export interface PolicyEngine {
  readonly kind: string;
  /** Currently served policy version (starts at 0, +1 per publish). */
  version(): number;
  generate(req: GenerateRequest, onToken?: (id: number, logprob: number) => void): Promise<GenerateResult>;
  score(req: ScoreRequest): Promise<ScoreResult>;
  /** Present only on engines that train in-process. */
  trainStep?(samples: TrainSample[], opts: TrainOptions): Promise<TrainStepMetrics>;
  /**
   * Log-probs under the trained weights before they are published (a staged version), for the
   * regression gate; engines that cannot score unpublished weights omit it.
   */
  scoreTrained?(req: ScoreRequest): Promise<ScoreResult>;
  /**
   * `scoreTrained` of many answers at one temperature in one call, where the engine can batch them
   * (the gate scores dozens per step); log-probs in request order. Absent: one call per answer.
   */
  scoreTrainedMany?(reqs: ScoreRequest[]): Promise<number[][]>;
  /**
   * `generateTrained` of several requests in one call, decoded together where the engine can (the
   * gate's probes); results in request order. Absent: one call per request.
   */
  generateTrainedMany?(reqs: GenerateRequest[]): Promise<GenerateResult[]>;
  /**
   * Whether `generateTrained` works against this engine's backend (a Tinker engine can only on
   * servers whose sampler paths are independent of the training model); absent: it does when
   * `generateTrained` is present.
   */
  canGenerateTrained?(): Promise<boolean> | boolean;
  /**
   * Samples an answer with the trained weights before they are published (the twin of
   * `scoreTrained`), away from serving: the replay evaluation re-answers held-out prompts with a
   * staged version. Usable when `canGenerateTrained` says so.
   */
  generateTrained?(req: GenerateRequest): Promise<GenerateResult>;
  /** Makes trained weights the served ones; returns the new version. */
  publish?(): Promise<number>;
  save?(dir: string): Promise<void>;
  /**
   * Rollback: makes the training state saved in checkpoint folder `dir` both the trained and the
   * served one at once, served as `version` (a new number: versions are never reused).
   */
  restore?(dir: string, version: number): Promise<void>;
  /** Reachability of a remote engine for /healthz (from its last real call); never throws. */
  health?(): Promise<{ ok: boolean; detail: string }>;
  close(): Promise<void>;
}

/** One streamed chat chunk: the raw `data:` text as received and its parsed JSON. */
export interface ChatStreamEvent {
  raw: string;
  chunk: Record<string, unknown>;
}

/**
 * What the gateway needs from a policy: OpenAI chat completions, streamed or whole. A request body
 * is a plain object, or one in parts whose large members carry their text (raw-json/json-text.ts).
 */
export interface ChatChannel {
  readonly kind: string;
  /**
   * Non-streaming completion; resolves to the upstream's JSON body (must contain `choices`). A long
   * `prompt_token_ids` there (and in stream chunks) may be a `LazyInts`: its text, parsed on use.
   */
  complete(body: JsonObject, signal?: AbortSignal): Promise<Record<string, unknown>>;
  /**
   * Streaming completion. Resolves only after the first upstream event arrived, so a failure
   * before the first byte rejects with its real status; later failures throw from the iterator.
   */
  stream(body: JsonObject, signal?: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>>;
  /** Reachability for /healthz: never throws. */
  health(): Promise<{ ok: boolean; detail: string }>;
  /** Policy version serving now (0 for remote engines that do not report one). */
  version(): number;
  close(): Promise<void>;
}
