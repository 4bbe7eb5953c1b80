// One training episode of a simulated user, driven through the RL server like a real client:
//
//   request 1 (main)        [system?] user: task                       → answer 1, rated (the metric)
//   request k (main)        … assistant: answer k−1, user: reply k−1    → answer k   (while unsatisfied)
//   closing request (main)  … assistant: last answer, user: last reply, X-Session-Done: true
//
// Why a closing request: a turn is judged on its next state, which the server only learns from
// the session's next main request. So the persona's reply to the last answer is sent as one more
// main request that also ends the session. Its own answer is a throwaway (the persona never reads
// it): it gets no next state, so it is masked (openclaw-rl) or force-dropped (opd), and it is
// capped at `closeMaxTokens` to cost little. A side request could not do this job: side turns
// never give the previous turn its next state (a side `session_done` closes the session with none).

import { OpenClawError } from '../errors/index.ts';
import type { ChatMessage } from '../engines/types.ts';
import { deriveSeed } from '../rl/index.ts';
import { requestAnswer, type ChatClientOptions } from './client.ts';
import type { Persona, PersonaName, PersonaReply, RandomSource } from './personas.ts';
import type { Task } from './tasks.ts';

/** What one episode needs. */
export interface EpisodeOptions extends ChatClientOptions {
  persona: Persona;
  /** The task (or a bare prompt) the persona asks. */
  task: Task | string;
  /** Sent as `X-Session-Id` on every request of the episode; use a fresh one per episode. */
  sessionId: string;
  /** Draws the persona's wording; same seed, same replies to the same answers. */
  rng: RandomSource;
  /** Most answers the persona waits for before giving up (default 3). */
  maxTurns?: number;
  /** A system message to start with, if any. */
  systemPrompt?: string;
  /** `max_tokens` of the closing request, whose answer nobody reads (default 8). */
  closeMaxTokens?: number;
  /** Sampling seed of the episode: request k sends `seed` deriveSeed(seed, k). Omitted: the server draws its own. */
  seed?: number;
}

/** One answer of the episode and what the persona made of it. */
export interface EpisodeTurn {
  /** 1 for the first answer, 2 for the first redo, … */
  attempt: number;
  answer: string;
  rating: 0 | 1;
  reply: PersonaReply;
}

/** The outcome of one episode. */
export interface EpisodeResult {
  sessionId: string;
  persona: PersonaName;
  taskId: string | null;
  prompt: string;
  /** Rating of the first answer: the benchmark metric. */
  firstRating: 0 | 1;
  /** Rating of every answer, in order. */
  ratings: Array<0 | 1>;
  /** Whether the persona was satisfied in the end. */
  satisfied: boolean;
  turns: EpisodeTurn[];
  /** The conversation as sent in the closing request (ends with the persona's last reply). */
  transcript: ChatMessage[];
  /** The closing request's answer (not part of the conversation). */
  closingAnswer: string;
  /** HTTP requests made (answers + 1). */
  requests: number;
}

/** Default of EpisodeOptions.maxTurns. */
export const DEFAULT_MAX_TURNS = 3;

/** Default of EpisodeOptions.closeMaxTokens. */
export const DEFAULT_CLOSE_MAX_TOKENS = 8;

function seedOf(opts: EpisodeOptions, request: number): number | undefined {
  return opts.seed === undefined ? undefined : deriveSeed(opts.seed, request);
}

/** Runs one episode: ask, read, reply, retry while unsatisfied, then close the session. */
export async function runEpisode(opts: EpisodeOptions): Promise<EpisodeResult> {
  const maxTurns = opts.maxTurns ?? DEFAULT_MAX_TURNS;
  if (!Number.isInteger(maxTurns) || maxTurns < 1)
    throw new OpenClawError('invalid_request', `maxTurns must be an integer ≥ 1, got ${maxTurns}`, { param: 'maxTurns' });
  const prompt = typeof opts.task === 'string' ? opts.task : opts.task.prompt;
  const messages: ChatMessage[] = [];
  if (opts.systemPrompt !== undefined) messages.push({ role: 'system', content: opts.systemPrompt });
  messages.push({ role: 'user', content: prompt });
  const turns: EpisodeTurn[] = [];
  for (let attempt = 1; attempt <= maxTurns; attempt++) {
    const answer = await requestAnswer(opts, messages, { sessionId: opts.sessionId, turnType: 'main', seed: seedOf(opts, attempt) });
    const reply = opts.persona.respond(answer, opts.rng, attempt);
    turns.push({ attempt, answer, rating: opts.persona.rate(answer), reply });
    messages.push({ role: 'assistant', content: answer }, { role: 'user', content: reply.text });
    if (reply.satisfied) break;
  }
  const closingAnswer = await requestAnswer(opts, messages, {
    sessionId: opts.sessionId,
    turnType: 'main',
    sessionDone: true,
    maxTokens: opts.closeMaxTokens ?? DEFAULT_CLOSE_MAX_TOKENS,
    seed: seedOf(opts, 0),
  });
  const ratings = turns.map((t) => t.rating);
  return {
    sessionId: opts.sessionId,
    persona: opts.persona.name,
    taskId: typeof opts.task === 'string' ? null : opts.task.id,
    prompt,
    firstRating: ratings[0],
    ratings,
    satisfied: turns[turns.length - 1].reply.satisfied,
    turns,
    transcript: messages,
    closingAnswer,
    requests: turns.length + 1,
  };
}
