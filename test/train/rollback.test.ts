// Rollback on a running `train` server (embedded engine, real HTTP): POST /admin/rollback serves
// the weights of a kept version again at once, under a new version number, and a restart
// continues from the rolled-back state; `openclaw-rl rollback` does the same to a stopped run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { startServer, type RunningServer } from '../../src/app/index.ts';
import { SampleStore } from '../../src/samples/index.ts';
import { rollbackStoppedRun } from '../../src/trainer/index.ts';
import { tinyCheckpoint } from '../support/tiny-checkpoint.ts';
import { tempDir } from '../support/temp.ts';
import { trainSteps, embeddedTrainConfig } from '../support/train-sessions.ts';

const KEY = 'rollback-test-key';
const PROBE = { promptIds: [3, 4, 5, 6], responseIds: [7, 8, 9], temperature: 1 };

async function probe(server: RunningServer): Promise<number[]> {
  return (await server.engine!.score(PROBE)).logprobs;
}

async function post(server: RunningServer, body: unknown, key: string | undefined = KEY) {
  const res = await fetch(`${server.url}/admin/rollback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

test('POST /admin/rollback restores a kept version at once under a new number; a restart continues from it', async () => {
  const checkpoint = await tinyCheckpoint();
  const out = tempDir('ocrl-rollback-');
  const config = embeddedTrainConfig(out, checkpoint, {
    'server.api_key': KEY,
    'training.lr': 5e-3,
    // Three steps, then the trainer holds still: what serves is what the test compares.
    'training.max_steps': 3,
  });
  const start = () => startServer(config, { train: true, trainerPollMs: 20, log: pino({ level: 'silent' }) });
  let server = await start();
  let kept = -1;
  try {
    await trainSteps(server, 1, 'a', KEY);
    kept = server.channel.version();
    const keptScores = await probe(server);
    await trainSteps(server, 2, 'b', KEY);
    const before = server.channel.version();
    assert.ok(before > kept);
    assert.notDeepEqual(await probe(server), keptScores, 'training moved the weights');

    assert.equal((await post(server, { version: kept }, '')).status, 401, 'the key is required');
    const bad = await post(server, { version: 'one' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'version');
    const missing = await post(server, { version: 999 });
    assert.equal(missing.status, 404);
    assert.match(missing.body.error.message, /kept versions: /);

    const r = await post(server, { version: kept });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.to_version, kept);
    assert.equal(r.body.from_version, before);
    assert.ok(r.body.policy_version > before, 'a new number, never a reused one');
    assert.equal(server.channel.version(), r.body.policy_version);
    assert.deepEqual(await probe(server), keptScores, 'the served weights are the kept version’s');
    assert.match(readFileSync(join(out, 'logs', 'train.log'), 'utf8'), new RegExp(`# \\S+ rollback .*to_version=${kept} `));
    const versions = await (await fetch(`${server.url}/admin/versions`, { headers: { authorization: `Bearer ${KEY}` } })).json();
    assert.ok(versions.kept.some((k: { policy_version: number }) => k.policy_version === r.body.policy_version));

    await server.close();
    server = await start();
    assert.equal(server.resume?.from?.dir, r.body.checkpoint, 'the restart continues from the rollback');
    assert.equal(server.channel.version(), r.body.policy_version);
    assert.deepEqual(await probe(server), keptScores);
  } finally {
    await server.close();
  }

  // A stopped run: the CLI's offline path writes the newest checkpoint from the kept one.
  const store = SampleStore.open(join(out, 'samples.sqlite'));
  const offline = await rollbackStoppedRun(out, store, kept);
  store.close();
  server = await start();
  try {
    assert.equal(server.resume?.from?.dir, offline.checkpoint);
    assert.equal(server.channel.version(), offline.policy_version);
  } finally {
    await server.close();
    rmSync(out, { recursive: true, force: true });
    rmSync(checkpoint, { recursive: true, force: true });
  }
});
