// Token alignment for upstreams that return text, not token ids (docs/design.md §3 "Token alignment").
// Re-tokenise prompt and prompt+response with the policy's own template, require the prompt ids
// to be a prefix, and fit the upstream's per-token log-probs onto the response ids. Every pad or
// trim is counted; padded positions carry mask 0 so they can never be trained on.
import { OpenClawError } from '../errors/index.ts';
import type { ChatMessage } from '../engines/types.ts';
import type { HfTokenizer } from './hf-tokenizer.ts';

/** Running totals of alignment outcomes; the caller exposes them (metrics, /healthz). */
export interface AlignmentCounters {
  /** Turns whose log-prob count matched the response ids exactly. */
  aligned: number;
  /** Turns that needed padding (upstream gave fewer log-probs than response ids). */
  padded: number;
  /** Turns that needed trimming (upstream gave more log-probs than response ids). */
  trimmed: number;
  /** Turns rejected because the prompt ids were not a prefix of prompt+response ids. */
  prefixMismatch: number;
  /** Positions filled in by padding, over all turns. */
  paddedTokens: number;
  /** Upstream log-probs dropped by trimming, over all turns. */
  trimmedTokens: number;
}

/** Fresh all-zero counters. */
export function createAlignmentCounters(): AlignmentCounters {
  return { aligned: 0, padded: 0, trimmed: 0, prefixMismatch: 0, paddedTokens: 0, trimmedTokens: 0 };
}

/** One turn as the upstream described it, in text. */
export interface AlignInput {
  messages: ChatMessage[];
  tools?: unknown[];
  /** Assistant text content (null when the turn is only tool calls). */
  responseText: string | null;
  /** OpenAI-style tool calls of the response, rendered by the template like any assistant message. */
  responseToolCalls?: Array<Record<string, unknown>>;
  /** Reasoning the upstream split off (`reasoning_content`); without it Qwen3 renders an empty think block. */
  responseReasoning?: string;
  /** 'length' means the policy never emitted its end-of-turn token, so it is not part of the response. */
  finishReason?: string | null;
  /** The upstream's per-token log-probs of the response, in order. */
  upstreamLogprobs: readonly number[];
  /** Template variables the server used (e.g. `{ enable_thinking: false }`). */
  templateKwargs?: Record<string, unknown>;
}

/** Prompt and response ids with one log-prob per response id. */
export interface AlignedTurn {
  promptText: string;
  promptIds: number[];
  responseIds: number[];
  /** Same length as responseIds. Padded positions hold 0 as a placeholder, never a real value. */
  logprobs: number[];
  /** 1 = the log-prob at this position came from the upstream; 0 = padded. Multiply into the loss mask. */
  logprobMask: number[];
  padded: number;
  trimmed: number;
  /** Human-readable note when padding or trimming happened, else null. */
  warning: string | null;
}

/** Placeholder at padded positions: finite so masked arithmetic stays finite (NaN·0 is NaN). */
export const PAD_LOGPROB = 0;

/**
 * Re-tokenises a text-only turn and aligns the upstream log-probs with the response ids.
 *
 * Policy: the response is everything after the generation prompt up to and including the first
 * end-of-turn token (the policy emitted it, and SGLang/vLLM report a log-prob for it); template
 * text after it (Qwen's trailing "\n") is dropped; with finish reason 'length' the end-of-turn
 * token is dropped too. A count mismatch is resolved at the end of the response: missing
 * log-probs are padded (mask 0), surplus ones trimmed; a non-finite upstream value is padded
 * in place. Throws OpenClawError('data',
 * code 'prefix_mismatch') when the prompt ids are not a prefix of the full ids.
 */
export function alignResponse(tokenizer: HfTokenizer, input: AlignInput, counters?: AlignmentCounters): AlignedTurn {
  const render = { tools: input.tools, templateKwargs: input.templateKwargs };
  const promptText = tokenizer.renderChat(input.messages, { ...render, addGenerationPrompt: true });
  const fullText = tokenizer.renderChat([...input.messages, assistantMessage(input)], { ...render, addGenerationPrompt: false });
  const promptIds = tokenizer.encode(promptText);
  const fullIds = tokenizer.encode(fullText);

  const mismatchAt = firstMismatch(promptIds, fullIds);
  if (mismatchAt !== -1) {
    if (counters !== undefined) counters.prefixMismatch += 1;
    throw prefixError(tokenizer, promptIds, fullIds, mismatchAt);
  }

  const responseIds = cutAtEndOfTurn(fullIds.slice(promptIds.length), tokenizer.endOfTurnIds, input.finishReason);
  if (responseIds.length === 0) {
    throw new OpenClawError('data', 'the re-rendered response has no tokens; the chat template dropped the assistant message', {
      code: 'empty_response',
    });
  }
  const fitted = fitLogprobs(input.upstreamLogprobs, responseIds.length);
  if (counters !== undefined) countFit(counters, fitted.padded, fitted.trimmed);
  return { promptText, promptIds, responseIds, ...fitted, warning: fitWarning(fitted.padded, fitted.trimmed, responseIds.length) };
}

function assistantMessage(input: AlignInput): ChatMessage {
  const msg: ChatMessage = { role: 'assistant', content: input.responseText ?? '' };
  if (input.responseToolCalls !== undefined && input.responseToolCalls.length > 0) msg.tool_calls = input.responseToolCalls;
  if (input.responseReasoning !== undefined) msg.reasoning_content = input.responseReasoning;
  return msg;
}

/** Index of the first prompt id that differs from the full ids (or runs past them), else -1. */
function firstMismatch(promptIds: number[], fullIds: number[]): number {
  for (let i = 0; i < promptIds.length; i++) {
    if (i >= fullIds.length || promptIds[i] !== fullIds[i]) return i;
  }
  return -1;
}

function prefixError(tokenizer: HfTokenizer, promptIds: number[], fullIds: number[], at: number): OpenClawError {
  const show = (ids: number[]) => (at < ids.length ? `${ids[at]} ${JSON.stringify(tokenizer.decode([ids[at]]))}` : 'nothing (too short)');
  return new OpenClawError(
    'data',
    `prompt tokens are not a prefix of prompt+response tokens: first mismatch at index ${at} of ${promptIds.length} ` +
      `(prompt has ${show(promptIds)}, prompt+response has ${show(fullIds)}). The chat template or BPE merges ` +
      `change the prompt when the response is appended; use an upstream that returns token ids for this model.`,
    { code: 'prefix_mismatch' },
  );
}

function cutAtEndOfTurn(rest: number[], endOfTurnIds: ReadonlySet<number>, finishReason: string | null | undefined): number[] {
  const eot = rest.findIndex((id) => endOfTurnIds.has(id));
  if (eot === -1) return rest;
  return rest.slice(0, finishReason === 'length' ? eot : eot + 1);
}

function fitLogprobs(upstream: readonly number[], n: number) {
  const logprobs: number[] = [];
  const logprobMask: number[] = [];
  let padded = 0;
  for (let i = 0; i < n; i++) {
    const v = upstream[i];
    // A missing or non-finite value (null, NaN, -Infinity) is as unusable as a missing entry.
    const real = typeof v === 'number' && Number.isFinite(v);
    logprobs.push(real ? v : PAD_LOGPROB);
    logprobMask.push(real ? 1 : 0);
    if (!real) padded += 1;
  }
  return { logprobs, logprobMask, padded, trimmed: Math.max(0, upstream.length - n) };
}

function countFit(c: AlignmentCounters, padded: number, trimmed: number): void {
  if (padded > 0) {
    c.padded += 1;
    c.paddedTokens += padded;
  }
  if (trimmed > 0) {
    c.trimmed += 1;
    c.trimmedTokens += trimmed;
  }
  if (padded === 0 && trimmed === 0) c.aligned += 1;
}

function fitWarning(padded: number, trimmed: number, n: number): string | null {
  const notes: string[] = [];
  if (padded > 0) notes.push(`padded ${padded} of ${n} response positions that had no usable upstream log-prob (masked out of training)`);
  if (trimmed > 0) notes.push(`trimmed ${trimmed} surplus upstream log-probs from the end`);
  return notes.length === 0 ? null : `token alignment for ${n} re-tokenised response tokens: ${notes.join('; ')}`;
}
