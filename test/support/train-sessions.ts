// Drives a training server the way a client would: judged two-turn sessions over HTTP until the
// trainer has taken a number of steps (embedded engine + rules judge: praise reads as +1).
import assert from 'node:assert/strict';
import { parseConfig, type Config } from '../../src/config/index.ts';
import type { RunningServer } from '../../src/app/index.ts';
import { postChat } from './chat.ts';

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
  const res = await postChat(url, sessionId, messages, { maxTokens: 8, done, key, model: 'm' });
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
      () => server.trainer!.step >= target || server.store.countReady() + server.store.counts().pending < 2,
      20_000,
    );
  }
}
