// Shared set-up of the pipeline's end-to-end tests: the real server (startServer) on loopback
// with a scripted policy, a scripted judge model (answers per request), a scripted SGLang teacher
// and a recording prompt renderer; plus a driver for multi-turn sessions through the gateway.
import pino, { type Logger } from 'pino';
import { parseConfig } from '../../src/config/index.ts';
import { startServer, type RunningServer } from '../../src/app/index.ts';
import type { ChatMessage } from '../../src/engines/types.ts';
import { hfPromptRenderer, type FeedbackPolicy } from '../../src/pipeline/index.ts';
import { loadHfTokenizer } from '../../src/tokenize/index.ts';
import type { StoredSample } from '../../src/samples/index.ts';
import { ScriptedUpstream, fakeTokenId } from '../support/scripted-upstream.ts';
import { ScriptedTeacher } from '../support/scripted-teacher.ts';
import { judgeFallback, type JudgeAnswer, type JudgePromptView } from '../support/scripted-judge.ts';
import { postJson } from '../support/harness.ts';
import { qwen3TokenizerDir } from '../support/qwen3-fixture.ts';
import { tempDir } from '../support/temp.ts';

/** Prompt ids the test renderer returns for every hinted prompt (length 4). */
export const RENDERED_PROMPT = [5, 6, 7, 8];

export interface ScoringHarness {
  server: RunningServer;
  policy: ScriptedUpstream;
  judge: ScriptedUpstream;
  teacher: ScriptedTeacher;
  /** Messages the recording prompt renderer was given (the hinted prompts), in call order; empty with `thread`. */
  rendered: ChatMessage[][];
  url: string;
  outDir: string;
  /** Headers every request sends (the API key, when the server has one). */
  headers: Record<string, string>;
  close(): Promise<void>;
}

/** Starts the server in `mode` with a judge model scripted by `script` (or the rules judge). */
export async function startScoring(opts: {
  mode: 'openclaw-rl' | 'openclaw-opd' | 'openclaw-combine';
  script?: (view: JudgePromptView) => JudgeAnswer | undefined;
  /** Config overrides, or a function of the scripted servers' URLs that returns them. */
  overrides?: Record<string, unknown> | ((urls: { judge: string; teacher: string }) => Record<string, unknown>);
  feedbackPolicy?: FeedbackPolicy;
  /**
   * Score in the worker thread, with every part built from the config there: the teacher's
   * prompts rendered by the real Qwen3 tokenizer (rollout.tokenizer), not the recording renderer.
   */
  thread?: boolean;
  /** The server's API key (every request then sends it; the admin routes need one). */
  apiKey?: string;
  /** Reuse this output folder (a restart of an earlier harness's run). */
  outDir?: string;
  /** The server's logger (default: silent). */
  log?: Logger;
}): Promise<ScoringHarness> {
  const policy = await new ScriptedUpstream().start();
  const judge = await new ScriptedUpstream().start();
  const teacher = await new ScriptedTeacher().start();
  if (opts.script) judge.fallback = judgeFallback(opts.script);
  const outDir = opts.outDir ?? tempDir('ocrl-pipeline-');
  const judgeTree = opts.script
    ? { provider: 'openai_compatible', base_url: judge.url, model_id: 'judge-model', timeout_s: 5 }
    : { provider: 'rules' };
  const config = parseConfig(
    {
      rollout: {
        provider: 'openai_compatible',
        base_url: policy.url,
        model_id: 'policy-upstream',
        max_tokens: 256,
        timeout_s: 5,
        first_token_timeout_s: 2,
        max_retries: 0,
        ...(opts.thread ? { tokenizer: qwen3TokenizerDir() } : {}),
      },
      judge: judgeTree,
      teacher: { provider: 'openai_compatible', base_url: teacher.url, logprob_api: 'sglang', timeout_s: 5 },
      // The simulated users send the name 'policy'; these tests are not about model names.
      server: { model_aliases: ['policy'] },
    },
    {
      env: {},
      overrides: {
        output_dir: outDir,
        'server.port': 0,
        mode: opts.mode,
        'scoring.feedback': opts.feedbackPolicy ?? 'override',
        'scoring.worker_thread': opts.thread === true,
        ...(typeof opts.overrides === 'function' ? opts.overrides({ judge: judge.url, teacher: teacher.url }) : (opts.overrides ?? {})),
      },
    },
  );
  const rendered: ChatMessage[][] = [];
  const server = await startServer(config, {
    log: opts.log ?? pino({ level: 'silent' }),
    apiKey: opts.apiKey,
    scoring: opts.thread
      ? undefined
      : {
          feedbackPolicy: opts.feedbackPolicy,
          renderPrompt: (messages) => {
            rendered.push(messages);
            return [...RENDERED_PROMPT];
          },
        },
  });
  return {
    server,
    policy,
    judge,
    teacher,
    rendered,
    url: server.url,
    outDir,
    headers: opts.apiKey !== undefined ? { authorization: `Bearer ${opts.apiKey}` } : {},
    async close() {
      await server.close();
      await Promise.all([policy.stop(), judge.stop(), teacher.stop()]);
    },
  };
}

const user = (content: string): ChatMessage => ({ role: 'user', content });

/**
 * Runs one session through POST /v1/chat/completions: request k sends the history so far ending
 * with `users[k]` and gets `answers[k]`; the last request carries session_done. So turn k's next
 * state is `users[k+1]`, and the last turn has none.
 */
export async function runSession(
  h: ScoringHarness,
  sessionId: string,
  users: string[],
  answers: string[],
  opts: { done?: boolean } = {},
): Promise<void> {
  const messages: ChatMessage[] = [];
  for (let k = 0; k < users.length; k++) {
    messages.push(user(users[k]));
    h.policy.script({ kind: 'text', text: answers[k] });
    const done = (opts.done ?? true) && k === users.length - 1;
    const res = await postJson(
      `${h.url}/v1/chat/completions`,
      {
        messages,
        session_id: sessionId,
        turn_type: 'main',
        session_done: done,
      },
      h.headers,
    );
    if (res.status !== 200) throw new Error(`turn ${k + 1} of ${sessionId} failed: ${res.status} ${JSON.stringify(res.body)}`);
    messages.push({ role: 'assistant', content: answers[k] });
  }
}

/** The scripted policy's token ids of an answer (one per whitespace-led piece). */
export function answerIds(text: string): number[] {
  return (text.match(/\s*\S+/g) ?? [text]).map(fakeTokenId);
}

/** The scripted policy's rollout log-probs for an answer of `n` tokens. */
export function answerLogprobs(n: number): number[] {
  return Array.from({ length: n }, (_, i) => -0.05 - 0.01 * i);
}

/** The prompt ids the teacher was sent before `answer`'s ids (the rendered hinted prompt). */
export function teacherPrompt(h: ScoringHarness, answer: string): number[] {
  const ids = answerIds(answer);
  const call = h.teacher.received.find(
    (r) => r.input_ids.length > ids.length && ids.every((id, i) => r.input_ids[r.input_ids.length - ids.length + i] === id),
  );
  if (call === undefined) throw new Error(`the teacher was never sent the answer '${answer}'`);
  return call.input_ids.slice(0, -ids.length);
}

/** What the worker thread renders for the teacher: the hinted messages through the Qwen3 chat template. */
export async function qwen3Prompt(messages: ChatMessage[]): Promise<number[]> {
  return hfPromptRenderer(await loadHfTokenizer(qwen3TokenizerDir()))(messages, undefined) as number[];
}

/** The session's samples by turn id. */
export function samplesByTurn(h: ScoringHarness, sessionId: string): Map<number, StoredSample> {
  return new Map(h.server.store.listSamples({ sessionId, limit: 1000 }).map((s) => [s.turnId, s]));
}

/** Where a turn ended: 'sample', 'dropped:<reason>', 'pending' or 'unknown'. */
export function outcomeOf(h: ScoringHarness, sessionId: string, turnId: number): string {
  const o = h.server.store.getTurnOutcome(sessionId, turnId);
  if (o === null) return 'unknown';
  if (o.status === 'dropped') return `dropped:${o.reason}`;
  return o.status === 'samples' ? 'sample' : 'pending';
}

/** Votes as a sorted multiset (concurrent votes arrive in any order). */
export function sortedVotes(votes: readonly unknown[]): string[] {
  return votes.map(String).sort();
}
