// SGLang's native `POST /generate`, single request, non-streamed, answered in SGLang's shape so
// the teacher's `sglang` dialect (src/scoring/teacher/dialects.ts) reads it unchanged:
//   {text, output_ids, meta_info: {id, finish_reason, prompt_tokens, completion_tokens,
//    cached_tokens, e2e_latency, policy_version,
//    input_token_logprobs: [[logprob|null, id, text|null], …], input_top_logprobs: [null, [[…]…], …],
//    output_token_logprobs: […], output_top_logprobs: […]}}
// Input log-probs cover input_ids[logprob_start_len:] (default: the last input token only); entry 0
// has logprob null, as in SGLang. As in SGLang they are log_softmax(logits) at temperature 1 (the
// teacher dialect relies on that). Output log-probs are the sampling ones, log_softmax(logits/T).
// Generation stops at the model's end-of-turn tokens unless `ignore_eos`; the stop token is the
// last output id. `max_new_tokens: 0` scores only. Sampling and scoring are separate engine calls:
// a publish between them would make the input log-probs come from the newer version, so
// `policy_version` reports the version that sampled the output (or, scoring only, that scored).

import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { invalidRequest } from '../errors/index.ts';
import type { GenerateResult, PolicyEngine, TopK } from '../engines/types.ts';
import { zodToInvalid, type EngineServerTokenizer } from './validate.ts';

/** SGLang's default `max_new_tokens`. */
const DEFAULT_MAX_NEW_TOKENS = 128;

const ids = z.array(z.number().int().nonnegative());

const GenerateBody = z
  .object({
    input_ids: z.union([ids, z.array(ids)]).optional(),
    text: z.union([z.string(), z.array(z.string())]).optional(),
    sampling_params: z
      .object({
        max_new_tokens: z.number().int().min(0).optional(),
        temperature: z.number().min(0).optional(),
        top_p: z.number().gt(0).max(1).optional(),
        stop_token_ids: ids.optional(),
        ignore_eos: z.boolean().optional(),
        sampling_seed: z.number().int().optional(),
      })
      .passthrough()
      .optional(),
    return_logprob: z.boolean().optional(),
    logprob_start_len: z.number().int().optional(),
    top_logprobs_num: z.number().int().min(0).optional(),
    return_text_in_logprobs: z.boolean().optional(),
    stream: z.boolean().optional(),
  })
  .passthrough();

type GenerateBody = z.infer<typeof GenerateBody>;

/** One SGLang log-prob entry: [logprob, token id, text or null]. */
type Entry = [number | null, number, string | null];

function inputIds(body: GenerateBody, tok: EngineServerTokenizer): number[] {
  if (body.stream === true)
    throw invalidRequest('stream: true is not supported by the embedded /generate; use /v1/chat/completions to stream', 'stream');
  if (body.input_ids !== undefined) {
    if (body.input_ids.some((x) => Array.isArray(x)))
      throw invalidRequest('batched input_ids are not supported: send one request per sequence', 'input_ids');
    return body.input_ids as number[];
  }
  if (typeof body.text === 'string') {
    if (tok.encodeText === undefined) throw invalidRequest('this server cannot tokenise text: send input_ids', 'text');
    return tok.encodeText(body.text);
  }
  if (Array.isArray(body.text)) throw invalidRequest('batched text is not supported: send one request per sequence', 'text');
  throw invalidRequest('send input_ids (token ids) or text', 'input_ids');
}

function finishReason(gen: GenerateResult | null): Record<string, unknown> {
  if (gen === null) return { type: 'length', length: 0 };
  if (gen.finishReason === 'stop') return { type: 'stop', matched: gen.tokenIds[gen.tokenIds.length - 1] };
  return { type: 'length', length: gen.tokenIds.length };
}

/** Answers one /generate body. */
export async function handleGenerate(
  engine: PolicyEngine,
  tok: EngineServerTokenizer,
  raw: unknown,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const parsed = GenerateBody.safeParse(raw ?? {});
  if (!parsed.success) throw zodToInvalid(parsed.error);
  const body = parsed.data;
  const input = inputIds(body, tok);
  if (input.length === 0) throw invalidRequest('input_ids is empty: send at least one token', 'input_ids');
  const sp = body.sampling_params ?? {};
  const maxNew = sp.max_new_tokens ?? DEFAULT_MAX_NEW_TOKENS;
  const temperature = sp.temperature ?? 1;
  const t0 = performance.now();
  let gen: GenerateResult | null = null;
  if (maxNew > 0) {
    const stops = [...(sp.ignore_eos === true ? [] : tok.stopTokenIds), ...(sp.stop_token_ids ?? [])];
    gen = await engine.generate({
      promptIds: input,
      maxTokens: maxNew,
      temperature,
      topP: sp.top_p,
      stopTokenIds: stops,
      includeStopToken: true,
      seed: sp.sampling_seed,
      signal,
    });
  }
  const outIds = gen?.tokenIds ?? [];
  const meta: Record<string, unknown> = {
    id: randomUUID().replace(/-/g, ''),
    finish_reason: finishReason(gen),
    prompt_tokens: input.length,
    completion_tokens: outIds.length,
    cached_tokens: 0,
  };
  const scoredBy = body.return_logprob === true ? await addLogprobs(meta, engine, tok, body, input, gen, temperature) : undefined;
  // The version that sampled the output; for scoring-only calls the one that scored the input.
  meta.policy_version = gen?.version ?? scoredBy ?? engine.version();
  meta.e2e_latency = (performance.now() - t0) / 1000;
  return { text: tok.decode(outIds.filter((id) => !tok.stopTokenIds.includes(id))), output_ids: outIds, meta_info: meta };
}

/** Fills the four log-prob fields of meta_info; returns the policy version that scored the input. */
async function addLogprobs(
  meta: Record<string, unknown>,
  engine: PolicyEngine,
  tok: EngineServerTokenizer,
  body: GenerateBody,
  input: number[],
  gen: GenerateResult | null,
  temperature: number,
): Promise<number> {
  const k = body.top_logprobs_num ?? 0;
  const topK = k > 0 ? k : undefined;
  const start = (body.logprob_start_len ?? -1) < 0 ? input.length - 1 : (body.logprob_start_len as number);
  if (start >= input.length)
    throw invalidRequest(`logprob_start_len ${start} must be smaller than the ${input.length} input tokens`, 'logprob_start_len');
  const text = (id: number) => (body.return_text_in_logprobs === true ? tok.tokenText(id) : null);
  const entry = (lp: number | null, id: number): Entry => [lp, id, text(id)];
  const tops = (list: TopK): Entry[] => Array.from(list.ids, (id, j) => entry(list.logprobs[j], id));

  const rest = input.slice(start + 1);
  const scored = await engine.score({ promptIds: input.slice(0, start + 1), responseIds: rest, temperature: 1, topK });
  meta.input_token_logprobs = [entry(null, input[start]), ...rest.map((id, i) => entry(scored.logprobs[i], id))];
  meta.input_top_logprobs = [null, ...rest.map((_, i) => (scored.topK !== undefined ? tops(scored.topK[i]) : []))];

  const out = gen?.tokenIds ?? [];
  meta.output_token_logprobs = out.map((id, i) => entry(gen?.logprobs[i] ?? null, id));
  if (topK !== undefined && out.length > 0) {
    const outTop = await engine.score({ promptIds: input, responseIds: out, temperature, topK });
    meta.output_top_logprobs = (outTop.topK ?? []).map(tops);
  } else {
    meta.output_top_logprobs = out.map(() => []);
  }
  return scored.version;
}
