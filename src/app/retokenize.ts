// Re-tokenising text-only upstream answers with the policy's own Hugging Face tokenizer
// (`rollout.tokenizer`), counting every pad/trim/mismatch (DESIGN.md §3 "Token alignment").
import { alignResponse, createAlignmentCounters, loadHfTokenizer, type AlignmentCounters } from '../tokenize/index.ts';
import type { Retokenizer } from '../gateway/index.ts';

/** Loads the tokenizer folder and returns the gateway's Retokenizer plus its counters. */
export async function hfRetokenizer(dir: string): Promise<{ retokenize: Retokenizer; counters: AlignmentCounters; countPromptTokens: (messages: Parameters<Retokenizer>[0]['messages'], tools?: unknown[]) => number }> {
  const tok = await loadHfTokenizer(dir);
  const counters = createAlignmentCounters();
  const retokenize: Retokenizer = ({ messages, tools, response, finishReason, upstreamLogprobs }) => {
    try {
      const a = alignResponse(tok, {
        messages,
        tools,
        responseText: typeof response.content === 'string' ? response.content : null,
        responseToolCalls: response.tool_calls,
        responseReasoning: typeof response.reasoning_content === 'string' ? response.reasoning_content : undefined,
        finishReason,
        upstreamLogprobs,
      }, counters);
      return {
        promptText: a.promptText,
        promptIds: a.promptIds,
        responseIds: a.responseIds,
        logprobs: a.logprobs,
        logprobMask: a.padded > 0 || a.logprobMask.includes(0) ? a.logprobMask : undefined,
        warnings: a.warning ? [a.warning] : [],
      };
    } catch (err) {
      return { logprobs: upstreamLogprobs, warnings: [`re-tokenisation failed, turn cannot be trained: ${(err as Error).message}`] };
    }
  };
  const countPromptTokens = (messages: Parameters<Retokenizer>[0]['messages'], tools?: unknown[]) =>
    tok.encode(tok.renderChat(messages, { tools, addGenerationPrompt: true })).length;
  return { retokenize, counters, countPromptTokens };
}
