// Shapes of Tinker's JSON answers (docs/tinker.md "What a step sends"; the Tinker SDK's types), validated once with zod where they enter.
// Servers add fields over time (and SkyRL's differ a little from the hosted service's), so
// objects are passthrough: only what we read is required.
import { z } from 'zod';
import { OpenClawError } from '../../errors/index.ts';

/** Answer to a submitted call: the future to poll. SkyRL sends the id as a string, others as a number. */
export const SubmitSchema = z
  .object({ request_id: z.union([z.string(), z.number()]).transform(String), model_id: z.string().optional() })
  .passthrough();

/** `retrieve_future` while the result is not ready. */
export const TryAgainSchema = z.object({ type: z.literal('try_again'), queue_state: z.string().optional() }).passthrough();

/** A failed future (hosted: `{error, category}`). */
export const FutureErrorSchema = z
  .object({ error: z.union([z.string(), z.record(z.unknown())]), category: z.string().optional() })
  .passthrough();

const TensorSchema = z.object({ data: z.array(z.number()) }).passthrough();

export const CreateSessionSchema = z
  .object({ session_id: z.string(), warning_message: z.string().nullish(), error_message: z.string().nullish() })
  .passthrough();
export const CreateModelResultSchema = z.object({ model_id: z.string() }).passthrough();

export const ForwardBackwardResultSchema = z
  .object({
    loss_fn_outputs: z.array(z.object({ logprobs: TensorSchema }).passthrough()),
    metrics: z.record(z.number()).default({}),
  })
  .passthrough();

export const OptimStepResultSchema = z.object({ metrics: z.record(z.number()).nullish() }).passthrough();
export const PathResultSchema = z.object({ path: z.string() }).passthrough();

export const SampleResultSchema = z
  .object({
    sequences: z.array(
      z
        .object({
          tokens: z.array(z.number().int()),
          logprobs: z.array(z.number()).nullish(),
          stop_reason: z.string().nullish(),
        })
        .passthrough(),
    ),
    prompt_logprobs: z.array(z.number().nullable()).nullish(),
    topk_prompt_logprobs: z.array(z.array(z.tuple([z.number().int(), z.number()])).nullable()).nullish(),
  })
  .passthrough();
export type SampleResult = z.infer<typeof SampleResultSchema>;

/** `client/config`: server feature flags (SDK client_config_response.py); any keys. */
export const ClientConfigSchema = z.record(z.unknown());

/** `create_sampling_session` (SDK create_sampling_session_response.py; SkyRL api.py L848-850). */
export const SamplingSessionSchema = z.object({ sampling_session_id: z.string() }).passthrough();

/** `GET training_runs/{id}/checkpoints` (SkyRL api.py L867-868, L1623-1651). */
export const CheckpointListSchema = z
  .object({ checkpoints: z.array(z.object({ tinker_path: z.string() }).passthrough()).default([]) })
  .passthrough();

/** `get_server_capabilities`: model names, as objects (SDK) or plain strings. */
export const CapabilitiesSchema = z
  .object({
    supported_models: z.array(z.union([z.string(), z.object({ model_name: z.string().nullish() }).passthrough()])).default([]),
  })
  .passthrough();

/** Names of the supported base models in a capabilities answer. */
export function supportedModelNames(c: z.infer<typeof CapabilitiesSchema>): string[] {
  return c.supported_models.flatMap((m) => (typeof m === 'string' ? [m] : m.model_name ? [m.model_name] : []));
}

/** Parses an answer with a schema; a mismatch is an upstream error naming the call. */
export function parseAnswer<S extends z.ZodTypeAny>(schema: S, value: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new OpenClawError(
    'upstream',
    `Tinker ${what} answered an unexpected shape (${issue.path.join('.') || 'body'}: ${issue.message}); is tinker.base_url a Tinker API server?`,
    { code: 'tinker_bad_answer' },
  );
}
