// Token alignment (docs/design.md §3): samples must hold the exact tokens the policy produced.
// Prefer engine token ids; otherwise re-tokenise with the policy's own tokenizer (an injected
// `Retokenizer`); otherwise record the turn without ids and say why (it cannot be trained).
import type { ChatMessage } from '../engines/types.ts';
import type { AnswerAccumulator } from './accumulate.ts';
import { LazyInts } from '../raw-json/lazy-ints.ts';

/** Token data of one answer, as recorded. */
export interface TurnTokens {
  promptIds?: number[];
  /** `promptIds` as the engine's JSON text, when they came as JSON (the records file reuses it). */
  promptIdsJson?: string;
  responseIds?: number[];
  logprobs?: number[];
  /** 1 = the log-prob at this position is real; 0 = padded by alignment (never train on it). */
  logprobMask?: number[];
  promptText?: string;
  warnings: string[];
}

/** Re-tokenises prompt + response with the policy's tokenizer and aligns the log-probs. */
export type Retokenizer = (input: {
  messages: ChatMessage[];
  tools?: unknown[];
  response: ChatMessage;
  finishReason: string | null;
  upstreamLogprobs: number[];
}) => TurnTokens;

/** Counters of how token ids were obtained (exposed at /metrics). */
export interface TokenCounters {
  engine_ids: number;
  retokenized: number;
  missing_ids: number;
  missing_logprobs: number;
  warnings: number;
}

/** Decides where a turn's token ids come from and counts each path. */
export class TokenResolver {
  readonly counters: TokenCounters = { engine_ids: 0, retokenized: 0, missing_ids: 0, missing_logprobs: 0, warnings: 0 };
  private readonly retokenize?: Retokenizer;

  constructor(retokenize?: Retokenizer) {
    this.retokenize = retokenize;
  }

  resolve(messages: ChatMessage[], tools: unknown[] | undefined, acc: AnswerAccumulator, response: ChatMessage): TurnTokens {
    const warnings: string[] = [];
    if (acc.logprobs.length === 0) {
      this.counters.missing_logprobs++;
      warnings.push('upstream returned no log-probs: this turn cannot be trained (does the engine support `logprobs`?)');
    }
    if (acc.tokenIds.length > 0) {
      if (acc.logprobs.length > 0 && acc.tokenIds.length !== acc.logprobs.length) {
        warnings.push(`engine returned ${acc.tokenIds.length} token ids but ${acc.logprobs.length} log-probs`);
      }
      this.counters.engine_ids++;
      const prompt = promptIdsOf(acc.promptTokenIds, warnings);
      this.counters.warnings += warnings.length;
      return { ...prompt, responseIds: acc.tokenIds, logprobs: acc.logprobs, warnings };
    }
    if (this.retokenize && acc.logprobs.length > 0) {
      const t = this.retokenize({ messages, tools, response, finishReason: acc.finishReason, upstreamLogprobs: acc.logprobs });
      this.counters.retokenized++;
      this.counters.warnings += t.warnings.length + warnings.length;
      return { ...t, warnings: [...warnings, ...t.warnings] };
    }
    this.counters.missing_ids++;
    warnings.push('no token ids: the upstream did not return them and rollout.tokenizer is not set, so this turn cannot be trained');
    this.counters.warnings += warnings.length;
    return { logprobs: acc.logprobs.length > 0 ? acc.logprobs : undefined, warnings };
  }
}

/** The engine's prompt ids, parsed now if they came as text; malformed ones are left out with a warning. */
function promptIdsOf(ids: number[] | LazyInts | undefined, warnings: string[]): Pick<TurnTokens, 'promptIds' | 'promptIdsJson'> {
  if (!(ids instanceof LazyInts)) return { promptIds: ids };
  try {
    return { promptIds: ids.values(), promptIdsJson: ids.json };
  } catch (err) {
    warnings.push(`engine returned malformed prompt_token_ids (${(err as Error).message}): this turn cannot be trained`);
    return {};
  }
}
