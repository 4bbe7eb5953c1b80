// Bearer-key auth of the gateway over real HTTP: with a server key configured (`--api-key`,
// `server.api_key` or OPENCLAW_RL_API_KEY), every route but /healthz and the dashboard's static
// page and assets (no data in them) wants `Authorization: Bearer <key>`; anything else is a 401
// in OpenAI's shape that says how to fix it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startHarness, postJson, type Harness } from '../support/harness.ts';
import { assertOpenAIError } from './expect.ts';

const KEY = 'sk-gateway-secret-123';
let h: Harness;
before(async () => {
  h = await startHarness({}, { apiKey: KEY });
});
after(async () => {
  await h.close();
});

const body = { messages: [{ role: 'user', content: 'hi' }], session_id: 'auth-1' };
const unauthorized = {
  type: 'authentication_error',
  code: 'invalid_api_key',
  param: null,
  mentions: [/Authorization: Bearer/, /--api-key/, /server\.api_key/, /OPENCLAW_RL_API_KEY/],
};

test('no header, wrong key, wrong scheme: 401 in OpenAI shape, nothing reaches the upstream', async () => {
  const sentBefore = h.upstream.received.length;
  const cases: Array<Record<string, string>> = [
    {},
    { authorization: 'Bearer sk-wrong' },
    { authorization: `Bearer ${KEY}x` },
    { authorization: `Bearer ${KEY.slice(0, -1)}` },
    { authorization: 'Bearer ' },
    { authorization: `Basic ${KEY}` },
    { authorization: `Token ${KEY}` },
    { authorization: KEY },
    { 'x-api-key': KEY },
  ];
  for (const headers of cases) {
    const res = await postJson(`${h.url}/v1/chat/completions`, body, headers);
    assert.equal(res.status, 401, JSON.stringify(headers));
    assertOpenAIError(res.body, unauthorized);
  }
  const streamed = await postJson(`${h.url}/v1/chat/completions`, { ...body, stream: true });
  assert.equal(streamed.status, 401, 'a streamed request is refused before any stream starts');
  assertOpenAIError(streamed.body, unauthorized);
  assert.equal(h.upstream.received.length, sentBefore);
  const view = await fetch(`${h.url}/sessions/auth-1`, { headers: { authorization: `Bearer ${KEY}` } });
  assert.equal(view.status, 404, 'refused requests start no session');
});

test('the right key works (any case of "Bearer"), also through the official openai client', async () => {
  h.upstream.script({ kind: 'text', text: 'welcome' });
  const res = await postJson(`${h.url}/v1/chat/completions`, body, { authorization: `Bearer ${KEY}` });
  assert.equal(res.status, 200);
  assert.equal(res.body.choices[0].message.content, 'welcome');
  h.upstream.script({ kind: 'text', text: 'lower' });
  const lower = await postJson(`${h.url}/v1/chat/completions`, { ...body, session_id: 'auth-2' }, { authorization: `bearer ${KEY}` });
  assert.equal(lower.status, 200);

  const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: KEY, maxRetries: 0 });
  h.upstream.script({ kind: 'text', tokens: ['str', 'eamed'] });
  const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
  assert.equal(text, 'streamed');
  const models = await client.models.list();
  assert.equal(models.data[0].id, 'policy-upstream');

  const wrong = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: 'sk-nope', maxRetries: 0 });
  await assert.rejects(wrong.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }), (e: unknown) => {
    assert.ok(e instanceof OpenAI.AuthenticationError);
    assert.equal(e.status, 401);
    assert.equal(e.code, 'invalid_api_key');
    return true;
  });
});

test('/healthz stays open; every other route wants the key', async () => {
  const health = await fetch(`${h.url}/healthz`);
  assert.equal(health.status, 200);
  assert.equal((await health.json()).status, 'ok');
  assert.equal((await fetch(`${h.url}/healthz?verbose=1`)).status, 200);
  for (const [method, path] of [
    ['GET', '/v1/models'],
    ['GET', '/metrics'],
    ['GET', '/sessions/auth-1'],
    ['POST', '/session'],
    ['GET', '/no/such/route'],
  ]) {
    const res = await fetch(`${h.url}${path}`, {
      method,
      headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      body: method === 'POST' ? '{}' : undefined,
    });
    assert.equal(res.status, 401, `${method} ${path}`);
    assertOpenAIError(await res.json(), unauthorized);
  }
  const models = await fetch(`${h.url}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } });
  assert.equal(models.status, 200);
});

test('the key can come from OPENCLAW_RL_API_KEY or server.api_key; --api-key wins over both', async () => {
  const saved = process.env.OPENCLAW_RL_API_KEY;
  process.env.OPENCLAW_RL_API_KEY = 'env-key';
  try {
    const fromEnv = await startHarness();
    try {
      assert.equal((await postJson(`${fromEnv.url}/v1/chat/completions`, body)).status, 401);
      assert.equal((await postJson(`${fromEnv.url}/v1/chat/completions`, body, { authorization: 'Bearer env-key' })).status, 200);
    } finally {
      await fromEnv.close();
    }
    const fromConfig = await startHarness({ 'server.api_key': 'config-key' });
    try {
      assert.equal(
        (await postJson(`${fromConfig.url}/v1/chat/completions`, body, { authorization: 'Bearer env-key' })).status,
        401,
        'the config key wins over the environment',
      );
      assert.equal((await postJson(`${fromConfig.url}/v1/chat/completions`, body, { authorization: 'Bearer config-key' })).status, 200);
    } finally {
      await fromConfig.close();
    }
    const fromFlag = await startHarness({ 'server.api_key': 'config-key' }, { apiKey: 'flag-key' });
    try {
      assert.equal((await postJson(`${fromFlag.url}/v1/chat/completions`, body, { authorization: 'Bearer config-key' })).status, 401);
      assert.equal((await postJson(`${fromFlag.url}/v1/chat/completions`, body, { authorization: 'Bearer flag-key' })).status, 200);
    } finally {
      await fromFlag.close();
    }
  } finally {
    if (saved === undefined) delete process.env.OPENCLAW_RL_API_KEY;
    else process.env.OPENCLAW_RL_API_KEY = saved;
  }
});

test('without any key configured, no header is needed', async () => {
  const saved = process.env.OPENCLAW_RL_API_KEY;
  delete process.env.OPENCLAW_RL_API_KEY;
  const open = await startHarness();
  try {
    assert.equal((await postJson(`${open.url}/v1/chat/completions`, body)).status, 200);
    assert.equal((await postJson(`${open.url}/v1/chat/completions`, body, { authorization: 'Bearer anything' })).status, 200);
  } finally {
    await open.close();
    if (saved !== undefined) process.env.OPENCLAW_RL_API_KEY = saved;
  }
});

test('with a key, the dashboard page and its static assets are served without it (they hold no data); its data API wants the key', async () => {
  // The page reads the key from `/dashboard#key=KEY`: a fragment is never sent, so the page
  // itself cannot need it. Everything with data is under /dashboard/api/.
  for (const path of ['/dashboard', '/dashboard/assets/app.js', '/dashboard/assets/style.css']) {
    const res = await fetch(`${h.url}${path}`);
    assert.equal(res.status, 200, path);
    const text = await res.text();
    assert.ok(!text.includes('auth-1') && !text.includes(KEY), `${path} holds no session data and no key`);
  }
  for (const path of ['/dashboard/api/status', '/dashboard/api/steps', '/dashboard/api/sessions', '/dashboard/api/sessions/auth-1/turns']) {
    const res = await fetch(`${h.url}${path}`);
    assert.equal(res.status, 401, path);
    assertOpenAIError(await res.json(), unauthorized);
    assert.equal((await fetch(`${h.url}${path}`, { headers: { authorization: `Bearer ${KEY}` } })).status, 200, `${path} with the key`);
  }
});
