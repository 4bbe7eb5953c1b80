// Reading prompt log-probs back from an `asample` answer (docs/tinker.md "Temperature rule"; the SDK's `prompt_logprobs`): entry i
// of `prompt_logprobs` is log p(token i | tokens < i), entry 0 is null. For a prompt of P tokens
// followed by R response tokens, the response's log-probs are entries P … P+R−1.
import type { OpenClawError } from '../../errors/index.ts';
import type { SampleResult } from './wire.ts';

/** Response-token log-probs (and top-K when asked) out of a prompt-log-prob answer. */
export function responseLogprobs(
  r: SampleResult,
  promptLength: number,
  responseLength: number,
  topK: number | undefined,
  mismatch: (detail: string) => OpenClawError,
): { logprobs: number[]; topK?: Array<{ ids: number[]; logprobs: number[] }> } {
  const all = r.prompt_logprobs;
  const n = promptLength + responseLength;
  if (!all) throw mismatch('returned no prompt_logprobs (prompt_logprobs: true was ignored)');
  if (all.length !== n) throw mismatch(`returned ${all.length} prompt log-probs for ${n} prompt + response tokens`);
  const logprobs: number[] = [];
  for (let t = 0; t < responseLength; t++) {
    const v = all[promptLength + t];
    if (v === null || !Number.isFinite(v)) throw mismatch(`returned ${v} as the log-prob of response token ${t}`);
    logprobs.push(v);
  }
  if (topK === undefined) return { logprobs };
  const tops = r.topk_prompt_logprobs;
  if (!tops || tops.length !== n) {
    throw mismatch(
      `returned top-K prompt log-probs for ${tops?.length ?? 0} of ${n} positions; this server may not support topk_prompt_logprobs (SkyRL's JAX backend does not) — set scoring.distill_topk: 0`,
    );
  }
  return {
    logprobs,
    topK: Array.from({ length: responseLength }, (_, t) => {
      const row = tops[promptLength + t] ?? [];
      return { ids: row.slice(0, topK).map((e) => e[0]), logprobs: row.slice(0, topK).map((e) => e[1]) };
    }),
  };
}
