// The parts of the trainer's replay evaluation a server builds from its config and policy: the
// hinted teacher (the policy's in-process one, or a client of the configured remote teacher), a
// judge-model call for replay_hint_satisfied, the chat tokenizer and the probe renderer.
import type { Config } from '../config/index.ts';
import type { ChatMessage } from '../engines/types.ts';
import { modeSpec } from '../methods/index.ts';
import type { PipelineParts } from '../pipeline/index.ts';
import { createTeacher, judgeHasModel, judgeModelCall } from '../scoring/index.ts';
import type { EvaluationParts } from '../trainer/index.ts';
import type { Policy } from './policy.ts';

/** The evaluation parts, and how to close the clients made for them. */
export function evaluationPartsFor(
  config: Config,
  policy: Policy,
  given: PipelineParts = {},
): { parts: EvaluationParts; close: () => Promise<void> } {
  const owned: Array<() => Promise<void>> = [];
  const e = config.evaluation;
  // Held-out distillation samples exist only with a held-out share, in a mode with hints.
  const replay = e.replay_max > 0 && e.holdout_fraction > 0 && modeSpec(config.mode).hints;
  let teacher = replay ? (given.teacher ?? policy.teacher) : undefined;
  if (replay && teacher === undefined) {
    const client = createTeacher(config);
    if (client !== null) owned.push(() => client.close());
    teacher = client ?? undefined;
  }
  const parts: EvaluationParts = { teacher, tokenizer: policy.chatTokenizer };
  // One connection: the check asks one answer's votes at a time, beside the scoring pipeline's calls.
  // A judge provider without a model (rules) lends no call, and there is no hint check.
  if (replay && judgeHasModel(config)) {
    const judge =
      given.judgeCall !== undefined ? { call: given.judgeCall, close: async () => {} } : judgeModelCall(config, { connections: 1 })!;
    owned.push(judge.close);
    parts.hintCheck = {
      call: judge.call,
      m: config.scoring.majority_vote,
      temperature: config.judge.temperature,
      maxTokens: config.judge.max_tokens,
    };
  }
  const render = policy.renderPrompt;
  if (render !== undefined) parts.render = (messages, tools) => render(messages as ChatMessage[], tools);
  return {
    parts,
    async close() {
      for (const close of owned) await close().catch(() => undefined);
    },
  };
}
