// Wire formats of the teacher's prompt log-prob APIs (`teacher.logprob_api`). Pure functions:
// build the request body for "score these response tokens after this prompt", and read the
// answer back, verifying the server scored exactly the tokens we sent.
//
// Both servers return, for each input position, the log-prob of that input token given the
// tokens before it, so the teacher scores the student's unchanged response tokens by reading the
// response positions of one prefill over prompt+response:
//  - SGLang `/generate`: `meta_info.input_token_logprobs` is aligned with `input_ids[logprob_start_len:]`,
//    entries are `[logprob, token_id, text|null]`, and entry 0 is always `None` (nothing before it
//    is scored). With `logprob_start_len = promptLen - 1` entry 0 is the last prompt token and
//    entries 1..R are the response. `top_logprobs_num` adds `input_top_logprobs`, same alignment.
//  - vLLM `/v1/completions`: `choices[0].prompt_logprobs` has one entry per prompt token, entry 0
//    is null, each other entry maps token-id strings to `{logprob, rank, decoded_token}` holding the
//    prompt token itself plus the top-k. vLLM ignores unknown fields, so its absence means "not
//    supported", never "empty". `max_tokens: 1` because vLLM rejects 0.
//
// Temperature: neither server scales prompt log-probs by temperature (SGLang computes input
// log-probs as log_softmax(logits); vLLM's prompt_logprobs are raw log-probs — adding a
// temperature there is an open proposal in both projects: sglang#36213, vllm#37082). A T=1
// log-prob cannot be converted to T afterwards (the normaliser needs every logit), so these
// dialects report `logprobTemperature = 1`; the `temperature` we send only affects sampling,
// which scoring discards.
import type { OpenClawError } from '../../errors/index.ts';
import { teacherMismatch, type TeacherScore } from './teacher.ts';

/** What one scoring call asks for. */
export interface ScoreCall {
  promptIds: readonly number[];
  responseIds: readonly number[];
  topK?: number;
  temperature: number;
  /** Served model name; vLLM needs it when it serves under a name. */
  model?: string;
}

/** One HTTP prompt-log-prob API: where to POST, what to send, how to read the answer. */
export interface HttpDialect {
  readonly name: 'sglang' | 'vllm';
  /** Temperature the returned log-probs are computed at (see the header comment). */
  readonly logprobTemperature: number;
  /** Request path for a base URL path ("" or "/v1" or "/api/v1" …). */
  path(basePath: string): string;
  body(call: ScoreCall): Record<string, unknown>;
  /** Extracts and verifies the response positions; throws OpenClawError code 'teacher_mismatch'. */
  parse(json: unknown, call: ScoreCall): TeacherScore;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const isLogprob = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

const stripSuffix = (path: string, suffix: string) => (path.endsWith(suffix) ? path.slice(0, -suffix.length) : path);

/** SGLang native `/generate` with `input_ids` and `return_logprob`. */
export const sglangDialect: HttpDialect = {
  name: 'sglang',
  logprobTemperature: 1,
  path(basePath) {
    // /generate lives at the server root, beside (not under) the OpenAI-style /v1.
    return `${stripSuffix(basePath, '/v1')}/generate`;
  },
  body(call) {
    const body: Json = {
      input_ids: [...call.promptIds, ...call.responseIds],
      sampling_params: { max_new_tokens: 0, temperature: call.temperature },
      return_logprob: true,
      logprob_start_len: call.promptIds.length - 1,
      return_text_in_logprobs: false,
    };
    if (call.topK !== undefined) body.top_logprobs_num = call.topK;
    return body;
  },
  parse(json, call) {
    const fail = (detail: string) => teacherMismatch('sglang', detail);
    const root = Array.isArray(json) && json.length === 1 ? json[0] : json;
    const meta = isObject(root) && isObject(root.meta_info) ? root.meta_info : null;
    const entries = meta?.input_token_logprobs;
    if (!Array.isArray(entries)) throw fail('returned no meta_info.input_token_logprobs (is return_logprob supported?)');
    const n = call.responseIds.length;
    if (entries.length !== n + 1) {
      throw fail(
        `returned ${entries.length} input log-prob entries, expected ${n + 1} (last prompt token + ${n} response tokens); logprob_start_len was ignored or the input was changed`,
      );
    }
    // Entry 0 is None or (None, last prompt token id, text): check the id when it is echoed.
    const first = entries[0];
    if (Array.isArray(first) && first[1] !== call.promptIds[call.promptIds.length - 1]) {
      throw fail(`scored from token ${String(first[1])} where the prompt ends with ${call.promptIds[call.promptIds.length - 1]}`);
    }
    const logprobs = call.responseIds.map((id, i) => {
      const entry = entries[i + 1];
      if (!Array.isArray(entry)) throw fail(`returned no entry for response token ${i}`);
      if (entry[1] !== id) throw fail(`scored token ${String(entry[1])} at response position ${i}, but the student produced ${id}`);
      if (!isLogprob(entry[0])) throw fail(`returned log-prob ${JSON.stringify(entry[0])} for response position ${i}`);
      return entry[0];
    });
    if (call.topK === undefined) return { logprobs };
    const tops = meta?.input_top_logprobs;
    if (!Array.isArray(tops) || tops.length !== n + 1)
      throw fail(`did not return input_top_logprobs for the ${n} response positions (top_logprobs_num=${call.topK})`);
    const topK = call.responseIds.map((_, i) => readTopList(tops[i + 1], call.topK as number, i, fail));
    return { logprobs, topK };
  },
};

function readTopList(list: unknown, k: number, position: number, fail: (d: string) => OpenClawError) {
  if (!Array.isArray(list) || list.length < k) throw fail(`returned fewer than ${k} top log-probs at response position ${position}`);
  const ids: number[] = [];
  const logprobs: number[] = [];
  for (const item of list.slice(0, k)) {
    if (!Array.isArray(item) || !isLogprob(item[0]) || !Number.isInteger(item[1]))
      throw fail(`returned a malformed top log-prob at response position ${position}`);
    logprobs.push(item[0]);
    ids.push(item[1] as number);
  }
  return { ids, logprobs };
}

/** vLLM OpenAI-style `/v1/completions` with a token-id prompt and `prompt_logprobs`. */
export const vllmDialect: HttpDialect = {
  name: 'vllm',
  logprobTemperature: 1,
  path(basePath) {
    return `${stripSuffix(basePath, '/v1')}/v1/completions`;
  },
  body(call) {
    const body: Json = {
      prompt: [...call.promptIds, ...call.responseIds],
      max_tokens: 1,
      temperature: call.temperature,
      // 0 still returns each prompt token's own log-prob; k adds the top-k alternatives.
      prompt_logprobs: call.topK ?? 0,
      // Newer vLLM echoes prompt_token_ids with this; older ones ignore it.
      return_token_ids: true,
    };
    if (call.model !== undefined) body.model = call.model;
    return body;
  },
  parse(json, call) {
    const fail = (detail: string) => teacherMismatch('vllm', detail);
    const choice = isObject(json) && Array.isArray(json.choices) ? json.choices[0] : undefined;
    if (!isObject(choice)) throw fail('returned no choices[0]');
    const entries = choice.prompt_logprobs;
    if (!Array.isArray(entries)) throw fail('returned no prompt_logprobs (the server ignored the field: too old a vLLM, or not vLLM)');
    const p = call.promptIds.length;
    const n = call.responseIds.length;
    if (entries.length !== p + n) throw fail(`returned ${entries.length} prompt_logprobs entries for ${p + n} prompt tokens`);
    const echoed = choice.prompt_token_ids;
    if (Array.isArray(echoed)) checkEcho(echoed, call, fail);
    const logprobs: number[] = [];
    const topK: Array<{ ids: number[]; logprobs: number[] }> = [];
    call.responseIds.forEach((id, i) => {
      const entry = entries[p + i];
      if (!isObject(entry)) throw fail(`returned ${JSON.stringify(entry)} for response position ${i}`);
      const own = entry[String(id)];
      if (!isObject(own) || !isLogprob(own.logprob)) {
        throw fail(`has no log-prob for token ${id} at response position ${i} (it scored ${Object.keys(entry).join(', ')})`);
      }
      logprobs.push(own.logprob);
      if (call.topK !== undefined) topK.push(readTopDict(entry, call.topK, i, fail));
    });
    return call.topK === undefined ? { logprobs } : { logprobs, topK };
  },
};

function checkEcho(echoed: unknown[], call: ScoreCall, fail: (d: string) => OpenClawError): void {
  const sent = [...call.promptIds, ...call.responseIds];
  const at = sent.findIndex((id, i) => echoed[i] !== id);
  if (echoed.length !== sent.length || at !== -1) {
    throw fail(
      `echoed prompt_token_ids that differ from what was sent (first difference at index ${at === -1 ? Math.min(echoed.length, sent.length) : at})`,
    );
  }
}

/** The dict holds the scored token plus the top-k; the k best by log-prob are the top-k. */
function readTopDict(entry: Json, k: number, position: number, fail: (d: string) => OpenClawError) {
  const ranked = Object.entries(entry)
    .map(([id, v]) => ({ id: Number(id), logprob: isObject(v) ? v.logprob : undefined }))
    .filter((x): x is { id: number; logprob: number } => Number.isInteger(x.id) && isLogprob(x.logprob))
    .sort((a, b) => b.logprob - a.logprob);
  if (ranked.length < k)
    throw fail(`returned ${ranked.length} alternatives at response position ${position}, fewer than the ${k} asked for`);
  const best = ranked.slice(0, k);
  return { ids: best.map((x) => x.id), logprobs: best.map((x) => x.logprob) };
}

/** Dialects reachable over HTTP, by `teacher.logprob_api` name. */
export const HTTP_DIALECTS: Record<HttpDialect['name'], HttpDialect> = { sglang: sglangDialect, vllm: vllmDialect };
