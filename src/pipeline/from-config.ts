// Builds the scoring pipeline a Config asks for: the judge (rules, or a judge model through an
// OpenAI-compatible channel), the teacher (an HTTP `logprob_api` dialect, or one the caller
// passes in, e.g. the embedded engine through `teacherClientFromBackend`) and the prompt renderer
// for hinted teacher prompts (the caller's, or the policy's HF tokenizer from rollout.tokenizer).
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import { modeSpec } from '../methods/index.ts';
import type { ChatMessage } from '../engines/types.ts';
import { channelFromSettings, type OpenAICompatibleChannel } from '../engines/openai-compatible/index.ts';
import { OpenClawError } from '../errors/index.ts';
import type { SampleStore } from '../samples/index.ts';
import type { JudgeCall } from '../scoring/index.ts';
import { createTeacherClient, teacherClientFromBackend, type TeacherClient } from '../scoring/teacher.ts';
import { tinkerClientFromConfig, tinkerTeacherBackend } from '../engines/tinker/index.ts';
import { loadHfTokenizer, type HfTokenizer } from '../tokenize/index.ts';
import { ScoringPipeline } from './pipeline.ts';
import type { JudgementViews } from './types.ts';
import type { FeedbackPolicy, PromptRenderer } from './types.ts';

/** Parts the caller may supply instead of building them from the config (tests, embedded engine). */
export interface PipelineParts {
  judgeCall?: JudgeCall;
  /** A teacher the caller owns (not closed by the pipeline); null = none. */
  teacher?: TeacherClient | null;
  renderPrompt?: PromptRenderer;
  feedbackPolicy?: FeedbackPolicy;
}

/** Judge-model retries on 429/5xx/connection errors before a vote counts as 'fail'. */
const JUDGE_MAX_RETRIES = 1;

/** A JudgeCall over an OpenAI-compatible channel: one chat completion, its text content. */
export function channelJudgeCall(channel: OpenAICompatibleChannel, model: string, signal?: AbortSignal): JudgeCall {
  return async (messages, o) => {
    const json = await channel.complete({ model, messages, temperature: o.temperature, max_tokens: o.maxTokens }, signal);
    const choice = (json.choices as Array<{ message?: { content?: unknown } }>)[0];
    const content = choice?.message?.content;
    if (typeof content !== 'string')
      throw new OpenClawError('upstream', `judge ${channel.info.url} answered without text content`, { code: 'judge_no_content' });
    return content;
  };
}

/** The judge model's call when `judge.provider` is a model (undefined for the rules judge), over its own channel. */
export function judgeCallFromConfig(
  config: Config,
  connections: number,
  signal?: AbortSignal,
): { call: JudgeCall; close: () => Promise<void> } | undefined {
  const j = config.judge;
  if (j.provider !== 'openai_compatible') return undefined;
  const channel = channelFromSettings('judge', j, { maxRetries: JUDGE_MAX_RETRIES, connections });
  return { call: channelJudgeCall(channel, j.model_id!, signal), close: () => channel.close() };
}

/** Renders with the policy's HF chat template (with the assistant header) and encodes to ids. */
export function hfPromptRenderer(tokenizer: HfTokenizer): PromptRenderer {
  return (messages: ChatMessage[], tools: unknown[] | undefined) =>
    tokenizer.encode(tokenizer.renderChat(messages, { tools, addGenerationPrompt: true }));
}

/**
 * The teacher client `teacher.logprob_api` names when it is remote (sglang / vllm over HTTP, or
 * Tinker); undefined for the embedded teacher, which the policy supplies. The caller closes it.
 */
export function teacherClientFromConfig(config: Config): TeacherClient | undefined {
  const t = config.teacher;
  if (t.provider === 'openai_compatible' && t.logprob_api !== 'embedded') {
    return createTeacherClient({
      baseUrl: t.base_url!,
      apiKey: t.api_key,
      model: t.model_id,
      dialect: t.logprob_api as 'sglang' | 'vllm',
      temperature: config.rollout.temperature,
      maxConcurrency: t.max_concurrency,
      timeoutMs: t.timeout_s * 1000,
    });
  }
  if (t.logprob_api === 'tinker') {
    // The teacher model is a base model id or a tinker:// sampler path (default tinker.base_model).
    const backend = tinkerTeacherBackend(tinkerClientFromConfig(config), t.model_id ?? config.tinker.base_model!, { ownsClient: true });
    return teacherClientFromBackend(backend, { maxConcurrency: t.max_concurrency });
  }
  return undefined;
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
  let judgeCall = parts.judgeCall;
  const j = config.judge;
  if (j.provider === 'openai_compatible' && judgeCall === undefined) {
    const judge = judgeCallFromConfig(config, config.scoring.judge_concurrency, stopJudging.signal)!;
    owned.push(judge.close);
    judgeCall = judge.call;
  }
  const needsTeacher = modeSpec(config.mode).teacher;
  let teacher = parts.teacher;
  if (teacher === undefined && needsTeacher) {
    teacher = teacherClientFromConfig(config);
    const built = teacher;
    if (built !== undefined) owned.push(() => built.close());
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
    judgeCall: judgeCall ?? null,
    teacher: teacher ?? null,
    renderPrompt: render ?? null,
    feedbackPolicy: parts.feedbackPolicy ?? config.scoring.feedback,
    async onClose() {
      stopJudging.abort(new OpenClawError('internal', 'the server is shutting down', { code: 'server_shutting_down' }));
      for (const close of owned) await close().catch(() => undefined);
    },
  });
}
