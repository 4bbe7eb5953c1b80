// Request bodies of the Tinker API subset (docs/tinker.md; field names and defaults as in
// SkyRL's server, skyrl/tinker/api.py, and the Python SDK, thinking-machines-lab/tinker). Unknown fields pass (the SDK sends more than we use, e.g.
// `type`); wrong types or ranges are a 400 naming the field.

import { z } from 'zod';
import { LOSS_FNS } from './learner.ts';
import { ID_PATTERN } from './paths.ts';

const int = z.number().int();
const tokenIds = z.array(int.nonnegative());
const checkpointName = z.string().regex(ID_PATTERN, 'use letters, digits, _ and - only (one path segment)');

/** A TENSOR: {data, dtype?, shape?}. */
export const Tensor = z
  .object({
    data: z.array(z.number()),
    dtype: z.string().optional(),
    shape: z.array(int).nullable().optional(),
  })
  .passthrough();

/** ModelInput: token chunks (only `encoded_text`; images are refused where used). */
export const ModelInput = z
  .object({
    chunks: z.array(z.object({ type: z.string().optional(), tokens: tokenIds.optional() }).passthrough()).min(1),
  })
  .passthrough();

export const CreateSession = z
  .object({
    tags: z.array(z.string()).optional(),
    user_metadata: z.record(z.unknown()).nullable().optional(),
    sdk_version: z.string().optional(),
  })
  .passthrough();

export const SessionRef = z.object({ session_id: z.string().min(1) }).passthrough();

export const CreateModel = z
  .object({
    session_id: z.string().min(1),
    model_seq_id: int.nonnegative().optional(),
    base_model: z.string().min(1),
    lora_config: z.object({ rank: int.nonnegative(), seed: int.nullable().optional() }).passthrough().nullable().optional(),
  })
  .passthrough();

export const ModelRef = z.object({ model_id: z.string().min(1) }).passthrough();

const FbInput = z
  .object({
    loss_fn: z.enum(LOSS_FNS),
    loss_fn_config: z.record(z.number()).nullable().optional(),
    data: z.array(z.object({ model_input: ModelInput, loss_fn_inputs: z.record(Tensor) }).passthrough()).min(1),
  })
  .passthrough();

export type FbInput = z.infer<typeof FbInput>;

export const ForwardBackward = z
  .object({ model_id: z.string().min(1), seq_id: int.optional(), forward_backward_input: FbInput })
  .passthrough();

export const Forward = z.object({ model_id: z.string().min(1), seq_id: int.optional(), forward_input: FbInput }).passthrough();

export const OptimStep = z
  .object({
    model_id: z.string().min(1),
    seq_id: int.optional(),
    adam_params: z
      .object({
        learning_rate: z.number().min(0).default(1e-4),
        beta1: z.number().min(0).lt(1).default(0.9),
        beta2: z.number().min(0).lt(1).default(0.95),
        eps: z.number().gt(0).default(1e-12),
        weight_decay: z.number().min(0).default(0),
        grad_clip_norm: z.number().min(0).default(0),
      })
      .passthrough(),
  })
  .passthrough();

export const SaveForSampler = z
  .object({
    model_id: z.string().min(1),
    path: checkpointName.nullable().optional(),
    seq_id: int.optional(),
    sampling_session_seq_id: int.nullable().optional(),
  })
  .passthrough();

export const SaveWeights = z.object({ model_id: z.string().min(1), path: checkpointName, seq_id: int.optional() }).passthrough();

export const LoadWeights = z
  .object({
    model_id: z.string().min(1),
    path: z.string().min(1),
    seq_id: int.optional(),
    optimizer: z.boolean().optional(),
  })
  .passthrough();

export const SamplingParams = z
  .object({
    // Checked by the service: hosted and SkyRL word the refusal differently (api.py L709-713).
    max_tokens: int.nullable().optional(),
    temperature: z.number().min(0).default(1),
    top_k: int.default(-1),
    top_p: z.number().gt(0).max(1).default(1),
    // Mixed lists are refused by the service, in the profile's words.
    stop: z
      .array(z.union([z.string(), int.nonnegative()]))
      .nullable()
      .optional(),
    seed: int.nullable().optional(),
  })
  .passthrough();

export const Asample = z
  .object({
    prompt: ModelInput,
    num_samples: int.min(1).max(64).default(1),
    sampling_params: SamplingParams,
    model_path: z.string().nullable().optional(),
    base_model: z.string().nullable().optional(),
    sampling_session_id: z.string().nullable().optional(),
    seq_id: int.nullable().optional(),
    prompt_logprobs: z.boolean().nullable().optional(),
    topk_prompt_logprobs: int.nonnegative().default(0),
  })
  .passthrough();

export type Asample = z.infer<typeof Asample>;

export const CreateSamplingSession = z
  .object({
    session_id: z.string().min(1),
    sampling_session_seq_id: int.optional(),
    base_model: z.string().nullable().optional(),
    model_path: z.string().nullable().optional(),
  })
  .passthrough();

export const RetrieveFuture = z
  .object({
    request_id: z.union([z.string().min(1), int]).transform(String),
    allow_metadata_only: z.boolean().optional(),
  })
  .passthrough();
