// Drives a training server the way a client would: judged two-turn sessions over HTTP until the
// trainer has taken a number of steps (embedded engine + rules judge: praise reads as +1).
import assert from 'node:assert/strict';
import { parseConfig, type Config } from '../../src/config/index.ts';
import type { RunningServer } from '../../src/app/index.ts';
import { postChat } from './chat.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PolicyEngine, TrainOptions, TrainSample } from '../../src/engines/types.ts';
import { makeSample } from './sample-fixtures.ts';

/**
 * A `train` config on the embedded engine for loop tests: binary RL, any free port, the given
 * (tiny) checkpoint, short answers at T = 1, batches of 2; `overrides` are config key paths.
 */
export function embeddedTrainConfig(out: string, checkpoint: string, overrides: Record<string, unknown> = {}): Config {
  return parseConfig(
    {},
    {
      env: {},
      overrides: {
        output_dir: out,
        mode: 'openclaw-rl',
        'server.port': 0,
        'rollout.checkpoint': checkpoint,
        'rollout.max_tokens': 8,
        'rollout.temperature': 1,
        'training.batch_size': 2,
        ...overrides,
      },
    },
  );
}

/** One main turn; asserts a 200 and returns the answer's text. */
export async function chat(url: string, sessionId: string, messages: unknown[], done = false, key?: string): Promise<string> {
  const res = await postChat(url, sessionId, messages, { maxTokens: 8, done, key });
  assert.equal(res.status, 200);
  return (await res.json()).choices[0].message.content;
}

/** One judged session of two turns: two RL samples (the rules judge reads the praise as +1). */
export async function session(url: string, id: string, key?: string): Promise<void> {
  const first = await chat(url, id, [{ role: 'user', content: 'hello there' }], false, key);
  await chat(
    url,
    id,
    [
      { role: 'user', content: 'hello there' },
      { role: 'assistant', content: first },
      { role: 'user', content: 'thanks, that is great!' },
    ],
    true,
    key,
  );
}

export async function until(what: string, check: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Runs sessions until the trainer has done `steps` steps in this process. */
export async function trainSteps(server: RunningServer, steps: number, tag: string, key?: string): Promise<void> {
  const target = server.trainer!.step + steps;
  let n = 0;
  while (server.trainer!.step < target) {
    await session(server.url, `${tag}-${n++}`, key);
    await until(
      `step ${target}`,
      // Leased samples count too: a step in progress must finish before another session is sent,
      // or the loop overshoots the target (and a test with max_steps waits forever).
      () => {
        const c = server.store.counts();
        return server.trainer!.step >= target || server.store.countReady() + c.pending + c.leased < 2;
      },
      20_000,
    );
  }
}

/** The prompt and the answer users liked, as token ids (valid in every test vocabulary). */
export const LIKED = { promptIds: [3, 4, 5, 6], responseIds: [7, 8, 9, 10], temperature: 1 };

/** Deliberately inverted advantages: every advantage the engine is asked to train on is negated. */
export function invertAdvantages(engine: PolicyEngine): void {
  const original = engine.trainStep!.bind(engine);
  engine.trainStep = (samples: TrainSample[], opts: TrainOptions) =>
    original(
      samples.map((s) => ({ ...s, advantages: s.advantages.map((a) => -a) })),
      opts,
    );
}

/**
 * Stores `n` samples of the LIKED answer (reward +1, recorded with the serving policy's own
 * log-probs, as a real rollout would be) and waits until each is trained, refused or held out.
 */
export async function feedLikedAnswer(server: RunningServer, n: number, timeoutMs: number): Promise<void> {
  const { logprobs } = await server.engine!.score(LIKED);
  for (let i = 0; i < n; i++) {
    server.store.addSample(
      makeSample(`liked-${i}`, 1, {
        policyVersion: 0,
        promptIds: LIKED.promptIds,
        responseIds: LIKED.responseIds,
        rolloutLogprobs: logprobs,
      }),
    );
  }
  server.trainer!.notify();
  await until(
    'every liked sample trained, refused or held out',
    () => server.store.countReady() < 2 && server.store.counts().leased === 0,
    timeoutMs,
  );
}

/** The JSON lines of a run's logs/metrics.jsonl (steps and events). */
export function metricsLines(out: string): Array<Record<string, any>> {
  return readFileSync(join(out, 'logs', 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}
