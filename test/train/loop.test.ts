// The whole loop on the CPU: scripted sessions through the gateway (rules judge) → samples →
// training steps in the worker → a new served version — while /healthz and chat keep answering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { startServer } from '../../src/app/index.ts';
import { tinyCheckpoint } from '../support/tiny-checkpoint.ts';
import { postChat } from '../support/chat.ts';
import { embeddedTrainConfig } from '../support/train-sessions.ts';
import type { TrainSample, TrainOptions } from '../../src/engines/types.ts';
import { tempDir } from '../support/temp.ts';

async function chat(url: string, sessionId: string, messages: unknown[], done = false): Promise<{ status: number; content: string }> {
  const res = await postChat(url, sessionId, messages, { maxTokens: 12, done });
  const body = await res.json();
  return { status: res.status, content: body.choices?.[0]?.message?.content ?? '' };
}

test('sessions become samples, the trainer publishes new versions, serving answers during a step', async () => {
  const checkpoint = await tinyCheckpoint();
  const outDir = tempDir('ocrl-loop-');
  const config = embeddedTrainConfig(outDir, checkpoint, {
    'rollout.max_tokens': 12,
    'training.epochs': 40,
    'training.lr': 1e-3,
    'training.save_interval': 0,
  });
  const server = await startServer(config, { train: true, trainerPollMs: 20, log: pino({ level: 'silent' }) });
  const stepWindows: Array<[number, number]> = [];
  const engine = server.engine!;
  const original = engine.trainStep!.bind(engine);
  engine.trainStep = async (samples: TrainSample[], opts: TrainOptions) => {
    const start = performance.now();
    try {
      return await original(samples, opts);
    } finally {
      stepWindows.push([start, performance.now()]);
    }
  };
  const completions: Array<[number, number, string]> = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const t0 = performance.now();
      const h = await fetch(`${server.url}/healthz`);
      completions.push([t0, performance.now(), `healthz ${h.status}`]);
      const t1 = performance.now();
      const c = await chat(server.url, `probe-${completions.length}`, [{ role: 'user', content: 'hello' }]);
      completions.push([t1, performance.now(), `chat ${c.status}`]);
    }
  })();
  try {
    assert.equal(server.channel.version(), 0);
    for (let s = 0; s < 2; s++) {
      const sid = `loop-${s}`;
      const first = await chat(server.url, sid, [{ role: 'user', content: 'hello there' }]);
      assert.equal(first.status, 200);
      const history = [
        { role: 'user', content: 'hello there' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: 'thanks, that is great!' },
      ];
      assert.equal((await chat(server.url, sid, history, true)).status, 200);
    }
    const deadline = Date.now() + 60_000;
    while (server.channel.version() < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(server.channel.version() >= 1, 'the served policy version increments after a training step');
    const counts = server.store.counts();
    assert.ok(counts.trained >= 2, `samples were trained (${JSON.stringify(counts)})`);
    const line = readFileSync(join(outDir, 'logs', 'train.log'), 'utf8').split('\n')[0];
    assert.match(line, /step=1 policy_version=1 .*reward_mean=/);
    // A turn answered after the publish records the new version.
    const after = await chat(server.url, 'after', [{ role: 'user', content: 'hello' }]);
    assert.equal(after.status, 200);
    const view = await (await fetch(`${server.url}/sessions/after`)).json();
    assert.ok(view.turns[0].policy_version >= 1);
  } finally {
    probing = false;
    await probe;
    await server.close();
  }
  const during = completions.filter(([a, b]) => stepWindows.some(([s, e]) => a >= s && b <= e));
  assert.ok(
    during.some(([, , what]) => what === 'healthz 200'),
    `a /healthz request completed inside a training step (${stepWindows.length} steps)`,
  );
  assert.ok(
    during.some(([, , what]) => what === 'chat 200'),
    'a chat request completed inside a training step',
  );
  assert.ok(
    completions.every(([, , what]) => what.endsWith('200')),
    'no request failed (no 503 while training)',
  );
});
