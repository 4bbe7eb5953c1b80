// The benchmark metric: a persona's rating of first answers to held-out tasks. Every request is a
// SIDE turn (`X-Turn-Type: side`, no session id), so the server answers it with the current policy
// but never records, judges or trains on it — measuring does not leak into training data.

import { OpenClawError } from '../errors/index.ts';
import type { ChatMessage } from '../engines/types.ts';
import { deriveSeed } from '../rl/index.ts';
import { requestAnswer, type ChatClientOptions } from './client.ts';
import type { Persona, PersonaName } from './personas.ts';
import { HELD_OUT_TASKS, type Task } from './tasks.ts';

/** What an evaluation needs. */
export interface EvaluateOptions extends ChatClientOptions {
  persona: Persona;
  /** Tasks to ask (default HELD_OUT_TASKS); sample i asks tasks[i mod tasks.length]. */
  tasks?: readonly Task[];
  /** Number of answers to rate (default: one per task). */
  samples?: number;
  /** Requests in flight at once (default 2). */
  concurrency?: number;
  /** A system message to start each request with, if any. */
  systemPrompt?: string;
  /**
   * Sampling seed: sample i sends `seed` deriveSeed(seed, i), so two versions are rated on the
   * same draws and a rerun of one version gives the same answers. Omitted: the server draws its own.
   */
  seed?: number;
}

/** One rated answer. */
export interface RatedAnswer {
  taskId: string;
  prompt: string;
  answer: string;
  rating: 0 | 1;
}

/** The mean rating and the answers behind it. */
export interface EvaluationResult {
  persona: PersonaName;
  /** Mean of the ratings, in [0, 1]. */
  mean: number;
  n: number;
  /** In sample order, whatever the concurrency. */
  items: RatedAnswer[];
}

/** Rates first answers of the current policy on held-out tasks, as side turns. */
export async function evaluatePersona(opts: EvaluateOptions): Promise<EvaluationResult> {
  const tasks = opts.tasks ?? HELD_OUT_TASKS;
  const samples = opts.samples ?? tasks.length;
  const concurrency = opts.concurrency ?? 2;
  if (tasks.length === 0) throw new OpenClawError('invalid_request', 'evaluatePersona needs at least one task', { param: 'tasks' });
  if (!Number.isInteger(samples) || samples < 1)
    throw new OpenClawError('invalid_request', `samples must be an integer ≥ 1, got ${samples}`, { param: 'samples' });
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new OpenClawError('invalid_request', `concurrency must be an integer ≥ 1, got ${concurrency}`, { param: 'concurrency' });
  const items: RatedAnswer[] = new Array(samples);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < samples) {
      const i = next++;
      const task = tasks[i % tasks.length];
      const messages: ChatMessage[] = [];
      if (opts.systemPrompt !== undefined) messages.push({ role: 'system', content: opts.systemPrompt });
      messages.push({ role: 'user', content: task.prompt });
      const seed = opts.seed === undefined ? undefined : deriveSeed(opts.seed, i);
      const answer = await requestAnswer(opts, messages, { turnType: 'side', seed });
      items[i] = { taskId: task.id, prompt: task.prompt, answer, rating: opts.persona.rate(answer) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, samples) }, worker));
  const total = items.reduce((sum, item) => sum + item.rating, 0);
  return { persona: opts.persona.name, mean: total / samples, n: samples, items };
}
