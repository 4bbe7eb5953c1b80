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
  let judgeCall = parts.judgeCall;
  const j = config.judge;
  if (j.provider === 'openai_compatible' && judgeCall === undefined) {
    const channel = channelFromSettings('judge', j, { maxRetries: JUDGE_MAX_RETRIES, connections: config.scoring.judge_concurrency });
    owned.push(() => channel.close());
    judgeCall = channelJudgeCall(channel, j.model_id!, stopJudging.signal);
  }
  const needsTeacher = modeSpec(config.mode).teacher;
  let teacher = parts.teacher;
  if (
    teacher === undefined &&
    needsTeacher &&
    config.teacher.provider === 'openai_compatible' &&
    config.teacher.logprob_api !== 'embedded'
  ) {
    const t = config.teacher;
    const client = createTeacherClient({
      baseUrl: t.base_url!,
      apiKey: t.api_key,
      model: t.model_id,
      dialect: t.logprob_api as 'sglang' | 'vllm',
      temperature: config.rollout.temperature,
      maxConcurrency: t.max_concurrency,
      timeoutMs: t.timeout_s * 1000,
    });
    owned.push(() => client.close());
    teacher = client;
  }
  if (teacher === undefined && needsTeacher && config.teacher.logprob_api === 'tinker') {
    // The teacher model is a base model id or a tinker:// sampler path (default tinker.base_model).
    const backend = tinkerTeacherBackend(tinkerClientFromConfig(config), config.teacher.model_id ?? config.tinker.base_model!, {
      ownsClient: true,
    });
    const client = teacherClientFromBackend(backend, { maxConcurrency: config.teacher.max_concurrency });
    owned.push(() => client.close());
    teacher = client;
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
