// The one place a config picks its judge (`judge.provider`): `rules`, the offline rules judge, or
// `openai_compatible`, a judge model over an OpenAI-compatible channel whose calls share
// scoring.judge_concurrency. A provider it does not know is a config error naming judge.provider.
import type { Config } from '../../config/index.ts';
import { channelFromSettings } from '../../engines/openai-compatible/index.ts';
import { OpenClawError } from '../../errors/index.ts';
import { Limiter } from '../../util/limiter.ts';
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

/**
 * The judge model's own call over a channel of `connections` (undefined for the rules judge): for
 * the judge, and for checks beside it (the replay evaluation's hint check). Closing it closes the channel.
 */
export function judgeModelCall(
  config: Config,
  opts: { connections: number; signal?: AbortSignal },
): { call: JudgeCall; close(): Promise<void> } | undefined {
  const j = config.judge;
  if (j.provider !== 'openai_compatible') return undefined;
  const channel = channelFromSettings('judge', j, { maxRetries: JUDGE_MAX_RETRIES, connections: opts.connections });
  return { call: channelJudgeCall(channel, j.model_id!, opts.signal), close: () => channel.close() };
}

/**
 * The judge `config` names. `call` replaces the judge model's channel (tests, bench); `signal`
 * cuts the channel's calls still running (shutdown).
 */
export function createJudge(config: Config, opts: { call?: JudgeCall; signal?: AbortSignal } = {}): OwnedJudge {
  const j = config.judge;
  const s = config.scoring;
  const provider = j.provider as string;
  if (provider === 'rules') {
    return {
      judge: rulesJudge({ m: s.majority_vote, quorum: s.quorum, minHintChars: s.min_hint_chars, minConfidence: j.min_confidence }),
      close: async () => {},
    };
  }
  if (provider === 'openai_compatible') {
    let raw = opts.call;
    let close = async () => {};
    if (raw === undefined) {
      const model = judgeModelCall(config, { connections: s.judge_concurrency, signal: opts.signal })!;
      raw = model.call;
      close = model.close;
    }
    const calls = new Limiter(s.judge_concurrency, 'scoring.judge_concurrency');
    const call: JudgeCall = (messages, o) => calls.run(() => (raw as JudgeCall)(messages, o));
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
    return { judge, close };
  }
  throw new OpenClawError('config', `judge.provider ${JSON.stringify(provider)} is not a judge provider; use rules or openai_compatible`, {
    param: 'judge.provider',
  });
}
