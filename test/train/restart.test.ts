// `train` stopped and started again, twice, on the same output folder (embedded engine, rules
// judge, real HTTP and SQLite): each start resumes from the newest checkpoint, so the policy
// version, the step numbers, train.log, /metrics and the sample store all continue and agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { startServer } from '../../src/app/index.ts';
import { tinyCheckpoint } from '../support/tiny-checkpoint.ts';
import { tempDir } from '../support/temp.ts';
import { trainSteps, embeddedTrainConfig } from '../support/train-sessions.ts';

function metricValue(text: string, name: string): number {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
  assert.ok(m, `/metrics has ${name}`);
  return Number(m[1]);
}

test('train restarted twice continues where it stopped: version, steps, train.log, /metrics and the store agree', async () => {
  const checkpoint = await tinyCheckpoint();
  const out = tempDir('ocrl-restart-');
  const config = embeddedTrainConfig(out, checkpoint, {
    'training.lr': 1e-3,
    'training.save_interval': 2,
  });
  const start = () => startServer(config, { train: true, trainerPollMs: 20, log: pino({ level: 'silent' }) });
  try {
    // Run 1: two steps or more, then a graceful stop (it saves the last step if the periodic save did not).
    let server = await start();
    assert.equal(server.resume?.from, undefined);
    await trainSteps(server, 2, 'a');
    await server.close();
    const step1 = server.trainer!.step;
    const version1 = server.channel.version();
    assert.ok(step1 >= 2 && version1 >= 1);
    assert.equal(readdirSync(join(out, 'checkpoints')).at(-1), `step-${String(step1).padStart(6, '0')}`);

    // Run 2: resumes at that step and version (the trained weights, not the base model).
    server = await start();
    assert.equal(server.resume?.from?.dir, join(out, 'checkpoints', `step-${String(step1).padStart(6, '0')}`));
    assert.equal(server.trainer!.step, step1);
    assert.equal(server.channel.version(), version1);
    await trainSteps(server, 1, 'b');
    const health = await (await fetch(`${server.url}/healthz`)).json();
    assert.ok(health.trainer.step > step1);
    assert.equal(health.trainer.last_error, null);
    await server.close();
    const step2 = server.trainer!.step;
    const version2 = server.channel.version();

    // Run 3: resumes again; everything recorded so far agrees.
    server = await start();
    try {
      assert.equal(server.resume?.from?.dir, join(out, 'checkpoints', `step-${String(step2).padStart(6, '0')}`));
      assert.equal(server.trainer!.step, step2);
      assert.equal(server.channel.version(), version2);
      await trainSteps(server, 1, 'c');
      const step3 = server.trainer!.step;
      const version3 = server.channel.version();
      const lines = readFileSync(join(out, 'logs', 'train.log'), 'utf8')
        .trim()
        .split('\n');
      const logged = lines.map((l) => [Number(/ step=(\d+)/.exec(l)?.[1]), Number(/policy_version=(\d+)/.exec(l)?.[1])]);
      assert.deepEqual(
        logged.map(([st]) => st),
        Array.from({ length: step3 }, (_, i) => i + 1),
        'one line per step, numbered on across restarts',
      );
      assert.ok(
        logged.every(([, v], i) => i === 0 || v >= logged[i - 1][1]),
        `versions never go back: ${JSON.stringify(logged)}`,
      );
      assert.equal(logged.at(-1)![1], version3);
      const jsonl = readFileSync(join(out, 'logs', 'metrics.jsonl'), 'utf8')
        .trim()
        .split('\n');
      assert.deepEqual(
        jsonl.map((l) => JSON.parse(l).step),
        logged.map(([st]) => st),
      );
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      assert.equal(metricValue(metrics, 'openclaw_rl_train_step'), step3);
      assert.equal(metricValue(metrics, 'openclaw_rl_train_policy_version'), version3);
      assert.equal(metricValue(metrics, 'openclaw_rl_policy_version'), version3);
      const batchSizes = jsonl.map((l) => JSON.parse(l).batch_size as number);
      // A step marks its batch trained and writes its line in one synchronous stretch.
      assert.equal(
        server.store.counts().trained,
        batchSizes.reduce((a, b) => a + b, 0),
        'every logged step trained its batch, and nothing else is trained',
      );
    } finally {
      await server.close();
    }
    const final = server.trainer!.step;
    assert.ok(existsSync(join(out, 'checkpoints', `step-${String(final).padStart(6, '0')}`, 'trainer.json')));
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(checkpoint, { recursive: true, force: true });
  }
});
