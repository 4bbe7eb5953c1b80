// The judge providers, one row each (as src/methods/modes.ts does for modes): how a provider's judge
// is built, and the model call it lends the replay evaluation's hint check (none for the rules
// judge). Adding a judge provider is its own file, a row here and its facts row in
// src/config/providers.ts JUDGE_FACTS (where the config schema takes the names from); nothing else
// compares provider names (docs/design.md "Where to add …").
import type { Config } from '../../config/index.ts';
import { channelFromSettings } from '../../engines/openai-compatible/index.ts';
import { Limiter } from '../../http/index.ts';
import type { Judge, JudgeCall } from '../types.ts';
import { channelJudgeCall, modelJudge } from './model.ts';
import { rulesJudge } from './rules.ts';

/** Judge-model retries on 429/5xx/connection errors before a vote counts as 'fail'. */
const JUDGE_MAX_RETRIES = 1;

/** A judge and what closing it takes (the judge model's channel, when the factory opened one). */
export interface OwnedJudge {
  judge: Judge;
  close(): Promise<void>;
}

/** A judge model's own call and how to close its channel. */
export interface OwnedJudgeCall {
  call: JudgeCall;
  close(): Promise<void>;
}

export interface JudgeProviderSpec {
  /** Builds the judge. `call` replaces the judge model's channel (tests, bench); `signal` cuts its calls (shutdown). */
  create(config: Config, opts: { call?: JudgeCall; signal?: AbortSignal }): OwnedJudge;
  /** The judge model's call over a channel of `connections`, for checks beside the judge; absent where there is no model. */
  modelCall?(config: Config, opts: { connections: number; signal?: AbortSignal }): OwnedJudgeCall;
}

export type JudgeProvider = Config['judge']['provider'];

const rules: JudgeProviderSpec = {
  create(config) {
    const s = config.scoring;
    return {
      judge: rulesJudge({
        m: s.majority_vote,
        quorum: s.quorum,
        minHintChars: s.min_hint_chars,
        minConfidence: config.judge.min_confidence,
      }),
      close: async () => {},
    };
  },
};

/** A judge model's call over an OpenAI-compatible channel of `connections`. */
function channelModelCall(config: Config, opts: { connections: number; signal?: AbortSignal }): OwnedJudgeCall {
  const j = config.judge;
  const channel = channelFromSettings('judge', j, { maxRetries: JUDGE_MAX_RETRIES, connections: opts.connections });
  return { call: channelJudgeCall(channel, j.model_id!, opts.signal), close: () => channel.close() };
}

const openaiCompatible: JudgeProviderSpec = {
  modelCall: channelModelCall,
  create(config, opts) {
    const { judge: j, scoring: s } = config;
    const owned =
      opts.call !== undefined
        ? { call: opts.call, close: async () => {} }
        : channelModelCall(config, { connections: s.judge_concurrency, signal: opts.signal });
    // Every call of the judge (PRM and hint votes of all turns) shares scoring.judge_concurrency.
    const calls = new Limiter(s.judge_concurrency, 'scoring.judge_concurrency');
    const call: JudgeCall = (messages, o) => calls.run(() => owned.call(messages, o));
    const judge = modelJudge({
      call,
      m: s.majority_vote,
      quorum: s.quorum,
      minConfidence: j.min_confidence,
      temperature: j.temperature,
      maxTokens: j.max_tokens,
      strategy: s.hint_selection,
      minHintChars: s.min_hint_chars,
    });
    return { judge, close: owned.close };
  },
};

export const JUDGE_PROVIDERS: Readonly<Record<JudgeProvider, JudgeProviderSpec>> = {
  rules,
  openai_compatible: openaiCompatible,
};
