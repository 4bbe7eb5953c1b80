import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenClawError } from '../../errors/index.ts';
import { startFakeTinker, type FakeTinker } from '../../../test/support/fake-tinker.ts';
import { SEQ_FILE, TinkerClient } from './client.ts';
import { tempDir } from '../../../test/support/temp.ts';

const tmp = () => tempDir('tinker-client-');

async function withFake(
  fn: (fake: FakeTinker, client: TinkerClient, dir: string) => Promise<void>,
  opts: { apiKey?: string; clientKey?: string } = {},
) {
  const fake = await startFakeTinker({ apiKey: opts.apiKey });
  const dir = tmp();
  const client = new TinkerClient({
    baseUrl: fake.url,
    apiKey: opts.clientKey ?? opts.apiKey,
    stateDir: dir,
    pollIntervalMs: 5,
    heartbeatMs: 20,
  });
  try {
    await fn(fake, client, dir);
  } finally {
    await client.close();
    await fake.close();
  }
}

test('futures: try_again and 408 are polled again until the result arrives', async () => {
  await withFake(async (fake, client) => {
    fake.pollScript.push(
      { status: 200, body: { type: 'try_again', request_id: '1', queue_state: 'active' } },
      { status: 408 },
      { status: 200, body: { type: 'try_again', queue_state: 'paused_capacity' } },
    );
    const id = await client.createModel('Qwen/Qwen3-8B', 16);
    assert.equal(id, 'model-1');
    assert.equal(fake.paths().filter((p) => p === '/retrieve_future').length, 4);
    const create = fake.requests.find((r) => r.path === '/create_model')!;
    assert.deepEqual(create.body.lora_config, { rank: 16, seed: null, train_unembed: true, train_mlp: true, train_attn: true });
    assert.equal(create.body.base_model, 'Qwen/Qwen3-8B');
    assert.equal(create.body.session_id, 'sess-1');
  });
});

test('futures: 410 resubmits the identical request (same payload, same seq_id)', async () => {
  await withFake(async (fake, client) => {
    fake.pollScript.push({ status: 410, body: { detail: 'gone' } });
    await client.optimStep('m1', { learning_rate: 1e-5 });
    const submits = fake.requests.filter((r) => r.path === '/optim_step');
    assert.equal(submits.length, 2);
    assert.equal(submits[1].text, submits[0].text, 'same payload, same seq_id');
    assert.equal(submits[0].body.seq_id, 1);
  });
});

test('futures: an error body becomes an OpenClawError with the server message and what to check', async () => {
  await withFake(async (fake, client) => {
    fake.pollScript.push({ status: 200, body: { error: 'sequence length 40000 exceeds 32768', category: 'User' } });
    await assert.rejects(
      client.sample({ promptIds: [1, 2], maxTokens: 4, temperature: 1, baseModel: 'Qwen/Qwen3-8B' }),
      (e: OpenClawError) =>
        e.kind === 'upstream' && /sequence length 40000 exceeds 32768/.test(e.message) && /check the base model/.test(e.message),
    );
  });
});

test("SkyRL's 400 {detail} on submit names the detail", async () => {
  await withFake(async (fake, client) => {
    fake.submitScript.set('/asample', [{ status: 400, body: { detail: 'max_tokens is currently required' } }]);
    await assert.rejects(
      client.sample({ promptIds: [1], maxTokens: 4, temperature: 1, baseModel: 'b' }),
      (e: OpenClawError) => e.code === 'tinker_rejected' && /max_tokens is currently required/.test(e.message),
    );
  });
});

test('a wrong key is explained (401) and the key never appears in the error', async () => {
  await withFake(
    async (_fake, client) => {
      await assert.rejects(client.capabilities(), (e: OpenClawError) => {
        assert.equal(e.kind, 'authentication');
        assert.match(e.message, /TINKER_API_KEY/);
        assert.doesNotMatch(e.message, /tml-wrong/);
        return true;
      });
    },
    { apiKey: 'tml-right', clientKey: 'tml-wrong' },
  );
});

test('the key goes in X-API-Key; capabilities lists the base models', async () => {
  await withFake(
    async (fake, client) => {
      assert.deepEqual(await client.capabilities(), ['Qwen/Qwen3-8B']);
      assert.equal(fake.requests[0].headers['x-api-key'], 'tml-right');
      assert.equal(fake.requests[0].headers.authorization, undefined);
    },
    { apiKey: 'tml-right' },
  );
});

test('seq_id: 1, 2, 3 per model in submission order, persisted before sending, continued by a new client', async () => {
  await withFake(async (fake, client, dir) => {
    await client.optimStep('m1', { learning_rate: 1e-5 });
    await client.saveWeightsForSampler('m1', 'v1');
    await client.optimStep('m2', { learning_rate: 1e-5 });
    assert.deepEqual(JSON.parse(readFileSync(join(dir, SEQ_FILE), 'utf8')), { m1: 2, m2: 1 });
    const again = new TinkerClient({ baseUrl: fake.url, stateDir: dir, pollIntervalMs: 5 });
    try {
      await again.saveWeights('m1', 'state-1');
    } finally {
      await again.close();
    }
    const seqs = fake.requests.filter((r) => r.body.model_id === 'm1' && r.path !== '/retrieve_future').map((r) => [r.path, r.body.seq_id]);
    assert.deepEqual(seqs, [
      ['/optim_step', 1],
      ['/save_weights_for_sampler', 2],
      ['/save_weights', 3],
    ]);
  });
});

test('the seq_id is on disk before the request goes out (a refused one is given back on hosted: no gap)', async () => {
  await withFake(async (fake, client, dir) => {
    fake.handlers.set('/optim_step', () => {
      // the counter was written before the submit
      assert.deepEqual(JSON.parse(readFileSync(join(dir, SEQ_FILE), 'utf8')), { m9: 1 });
      return { metrics: {} };
    });
    await client.optimStep('m9', { learning_rate: 1 });
    fake.submitScript.set('/optim_step', [{ status: 400, body: { detail: 'bad' } }]);
    await assert.rejects(client.optimStep('m9', { learning_rate: 1 }));
    assert.deepEqual(JSON.parse(readFileSync(join(dir, SEQ_FILE), 'utf8')), { m9: 1 });
  });
});

test('the session heartbeat runs every heartbeatMs and stops on close', async () => {
  await withFake(async (fake, client) => {
    await client.createSession();
    await new Promise((r) => setTimeout(r, 120));
    const beats = fake.paths().filter((p) => p === '/session_heartbeat').length;
    assert.ok(beats >= 2, `${beats} heartbeats`);
    assert.equal(fake.requests.find((r) => r.path === '/session_heartbeat')!.body.session_id, 'sess-1');
    await client.close();
    const after = fake.paths().length;
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(fake.paths().length, after);
  });
});

test('an unreachable server says which URL and what to check', async () => {
  const client = new TinkerClient({ baseUrl: 'http://127.0.0.1:9', stateDir: tmp() });
  try {
    await assert.rejects(client.healthz(), (e: OpenClawError) => e.kind === 'upstream_connection' && /tinker\.base_url/.test(e.message));
  } finally {
    await client.close();
  }
});

test('a base URL with /api/v1 or a trailing slash reaches the same paths', async () => {
  const fake = await startFakeTinker();
  for (const base of [`${fake.url}/`, `${fake.url}/api/v1`]) {
    const c = new TinkerClient({ baseUrl: base, stateDir: tmp() });
    await c.healthz();
    await c.close();
  }
  assert.deepEqual(fake.paths(), ['/healthz', '/healthz']);
  await fake.close();
});

test('a seq_id reused with another payload (a lost counter) is refused with an explanation', async () => {
  await withFake(async (fake, client) => {
    await client.optimStep('m1', { learning_rate: 1e-5 });
    const forgetful = new TinkerClient({ baseUrl: fake.url, stateDir: tmp(), pollIntervalMs: 5 });
    try {
      await assert.rejects(
        forgetful.optimStep('m1', { learning_rate: 2e-5 }),
        (e: OpenClawError) => e.code === 'tinker_seq_conflict' && /resume from the last saved weights/.test(e.message),
      );
    } finally {
      await forgetful.close();
    }
  });
});
