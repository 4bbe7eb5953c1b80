// The one place a config picks its judge (`judge.provider`), by its row in JUDGE_PROVIDERS
// (providers.ts; e.g. `rules`, the offline rules judge, or `openai_compatible`, a judge model over
// an OpenAI-compatible channel whose calls share scoring.judge_concurrency). A provider it does not
// know is a config error naming judge.provider.
import { providerRow, type Config } from '../../config/index.ts';
import type { JudgeCall } from '../types.ts';
import { JUDGE_PROVIDERS, type JudgeProviderSpec, type OwnedJudge, type OwnedJudgeCall } from './providers.ts';

export type { OwnedJudge, OwnedJudgeCall } from './providers.ts';

function providerOf(config: Config): JudgeProviderSpec {
  return providerRow(JUDGE_PROVIDERS, config.judge.provider, 'judge.provider');
}

/** Whether the judge `config` names calls a model (and so can lend `judgeModelCall`). */
export function judgeHasModel(config: Config): boolean {
  return providerOf(config).modelCall !== undefined;
}

/**
 * The judge model's own call over a channel of `connections` (undefined where the provider has no
 * model, as the rules judge): for checks beside the judge (the replay evaluation's hint check).
 * Closing it closes the channel.
 */
export function judgeModelCall(config: Config, opts: { connections: number; signal?: AbortSignal }): OwnedJudgeCall | undefined {
  return providerOf(config).modelCall?.(config, opts);
}

/**
 * The judge `config` names. `call` replaces the judge model's channel (tests, bench); `signal`
 * cuts the channel's calls still running (shutdown).
 */
export function createJudge(config: Config, opts: { call?: JudgeCall; signal?: AbortSignal } = {}): OwnedJudge {
  return providerOf(config).create(config, opts);
}
