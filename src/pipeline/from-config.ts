// Builds the scoring pipeline a Config asks for: the judge and the teacher from scoring's
// factories (`createJudge`, `createTeacher`; or a teacher the caller passes in, e.g. the embedded
// engine's) and the prompt renderer for hinted teacher prompts (the caller's, or the policy's HF
// tokenizer from rollout.tokenizer).
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import { modeSpec } from '../methods/index.ts';
import type { ChatMessage } from '../engines/types.ts';
import { OpenClawError } from '../errors/index.ts';
import type { SampleStore } from '../samples/index.ts';
import { createJudge, createTeacher, type JudgeCall, type Teacher } from '../scoring/index.ts';
import { loadHfTokenizer, type HfTokenizer } from '../tokenize/index.ts';
import { ScoringPipeline } from './pipeline.ts';
import type { JudgementViews } from './types.ts';
import type { FeedbackPolicy, PromptRenderer } from './types.ts';

/** Parts the caller may supply instead of building them from the config (tests, embedded engine). */
export interface PipelineParts {
  judgeCall?: JudgeCall;
  /** A teacher the caller owns (not closed by the pipeline); null = none. */
  teacher?: Teacher | null;
  renderPrompt?: PromptRenderer;
  feedbackPolicy?: FeedbackPolicy;
}

/** Renders with the policy's HF chat template (with the assistant header) and encodes to ids. */
export function hfPromptRenderer(tokenizer: HfTokenizer): PromptRenderer {
  return (messages: ChatMessage[], tools: unknown[] | undefined) =>
    tokenizer.encode(tokenizer.renderChat(messages, { tools, addGenerationPrompt: true }));
}

/** Creates the pipeline for `config` (the caller calls `start()` once the server is up). */
export async function createScoringPipeline(
  config: Config,
  deps: { store: SampleStore; views?: JudgementViews; log?: Logger; onStorageError?: (err: unknown, path: string) => void },
  parts: PipelineParts = {},
): Promise<ScoringPipeline> {
  const owned: Array<() => Promise<void>> = [];
  // Aborted at close: judge calls still running then are cut (their turns stay pending and are
  // re-judged at the next start), so shutdown does not wait for judge.timeout_s.
  const stopJudging = new AbortController();
  const judge = createJudge(config, { call: parts.judgeCall, signal: stopJudging.signal });
  owned.push(() => judge.close());
  const needsTeacher = modeSpec(config.mode).teacher;
  let teacher = parts.teacher;
  if (teacher === undefined && needsTeacher) {
    const client = createTeacher(config);
    if (client !== null) {
      owned.push(() => client.close());
      teacher = client;
    }
  }
  let render = parts.renderPrompt;
  if (render === undefined && needsTeacher && config.rollout.tokenizer !== undefined)
    render = hfPromptRenderer(await loadHfTokenizer(config.rollout.tokenizer));
  if (needsTeacher && (teacher === undefined || teacher === null || render === undefined)) {
    deps.log?.warn(
      { mode: config.mode, teacher: teacher ? 'yes' : 'no', renderer: render ? 'yes' : 'no' },
      `${config.mode} distils from a teacher, but ${teacher ? 'no prompt renderer is set (rollout.tokenizer)' : 'no teacher is available (teacher.provider / logprob_api)'}: turns with an accepted hint will be dropped as 'teacher_unavailable'`,
    );
  }
  return new ScoringPipeline({
    config,
    store: deps.store,
    views: deps.views,
    log: deps.log,
    onStorageError: deps.onStorageError,
    judge: judge.judge,
    teacher: teacher ?? null,
    renderPrompt: render ?? null,
    feedbackPolicy: parts.feedbackPolicy ?? config.scoring.feedback,
    async onClose() {
      stopJudging.abort(new OpenClawError('internal', 'the server is shutting down', { code: 'server_shutting_down' }));
      for (const close of owned) await close().catch(() => undefined);
    },
  });
}
