// Context limits: a prompt longer than the policy's context is refused up front with an
// OpenAI-style 400 naming both lengths, before the upstream is called — never truncated. The
// token count is injected: the policy's own Hugging Face tokenizer + chat template when
// `rollout.tokenizer` is set (`promptTokenCounter`), or any other counting function.
import { OpenClawError } from '../errors/index.ts';
import type { ChatMessage } from '../engines/types.ts';

/** Counts the prompt tokens the policy would see for these messages and tools. */
export type PromptTokenCounter = (messages: ChatMessage[], tools?: unknown[]) => number;

/** Throws the 400 a client gets for a prompt over the context, or returns the prompt's length. */
export type ContextGuard = (messages: ChatMessage[], tools?: unknown[]) => number;

/** The error for a prompt of `promptTokens` against a context of `contextLength` tokens. */
export function contextLengthError(promptTokens: number, contextLength: number): OpenClawError {
  return new OpenClawError(
    'context_length',
    `This model's maximum context length is ${contextLength} tokens, but the prompt has ${promptTokens} tokens. ` +
      'Shorten the conversation or system prompt, or serve a policy with a longer context (rollout.context_length); ' +
      'the server never truncates prompts.',
    { code: 'context_length_exceeded', param: 'messages' },
  );
}

/** A guard that counts the prompt and throws `context_length_exceeded` when it exceeds `contextLength`. */
export function createContextGuard(contextLength: number, count: PromptTokenCounter): ContextGuard {
  if (!Number.isInteger(contextLength) || contextLength <= 0) {
    throw new OpenClawError('config', `rollout.context_length must be a positive integer, got ${contextLength}`);
  }
  return (messages, tools) => {
    const n = count(messages, tools);
    if (n > contextLength) throw contextLengthError(n, contextLength);
    return n;
  };
}

/** The parts of a loaded tokenizer (src/tokenize `HfTokenizer`) a prompt count needs. */
export interface PromptTokenizer {
  renderChat(
    messages: ChatMessage[],
    opts: { tools?: unknown[]; addGenerationPrompt: boolean; templateKwargs?: Record<string, unknown> },
  ): string;
  encode(text: string): number[];
}

/** Counts prompt tokens as the policy server would: chat template with tools (and the server's template kwargs), then encode. */
export function promptTokenCounter(tokenizer: PromptTokenizer, templateKwargs?: Record<string, unknown>): PromptTokenCounter {
  return (messages, tools) => {
    const text = tokenizer.renderChat(messages, {
      tools: tools !== undefined && tools.length > 0 ? tools : undefined,
      addGenerationPrompt: true,
      templateKwargs,
    });
    return tokenizer.encode(text).length;
  };
}
