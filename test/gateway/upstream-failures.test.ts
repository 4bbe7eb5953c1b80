// Every way the upstream policy server can fail, seen from a client of the gateway over real
// HTTP: the status and OpenAI-shaped error it gets (streamed and not), that the message says what
// to fix, that the server keeps serving, and that the failed turn is never recorded.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../support/harness.ts';
import type { Behaviour } from '../support/scripted-upstream.ts';
import {
  assertNotRecorded,
  assertOpenAIError,
  assertStillServes,
  chat,
  chatAnswer,
  chatStream,
  recordedTurns,
  until,
  type ErrorExpectation,
} from './expect.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

const user = (content: string) => ({ role: 'user', content });
let sessionCounter = 0;
const newSession = (label: string) => `${label}-${++sessionCounter}`;

interface StatusCase {
  name: string;
  script: Behaviour[];
  status: number;
  /** Upstream requests one client request should cause (retries included). */
  attempts: number;
  want: ErrorExpectation;
}

const statusCases: StatusCase[] = [
  {
    name: '401 bad key',
    script: [{ kind: 'status', status: 401, body: { error: { message: 'Incorrect API key provided' } } }],
    status: 401,
    attempts: 1,
    want: {
      type: 'authentication_error',
      code: 'upstream_auth',
      mentions: [/rollout\.api_key/, /OAuth/, /Incorrect API key provided/, /HTTP 401/],
    },
  },
  {
    name: '403 forbidden',
    script: [{ kind: 'status', status: 403, body: { error: { message: 'This credential is only valid for OAuth login sessions' } } }],
    status: 403,
    attempts: 1,
    want: { type: 'permission_error', code: 'upstream_auth', mentions: [/rollout\.api_key/, /OAuth/, /HTTP 403/] },
  },
  {
    name: '404 unknown model',
    script: [
      { kind: 'status', status: 404, body: { error: { message: 'The model `policy-upstream` does not exist.', type: 'NotFoundError' } } },
    ],
    status: 404,
    attempts: 1,
    want: { type: 'not_found_error', code: 'model_not_found', mentions: [/'policy-upstream'/, /rollout\.model_id/, /\/models/] },
  },
  {
    name: '429 with retry-after-ms honoured, then exhausted',
    script: [
      { kind: 'status', status: 429, headers: { 'retry-after-ms': '10' }, body: { error: { message: 'slow down' } } },
      { kind: 'status', status: 429, headers: { 'retry-after-ms': '10' }, body: { error: { message: 'slow down' } } },
    ],
    status: 429,
    attempts: 2,
    want: { type: 'rate_limit_error', code: 'upstream_rate_limited', mentions: [/429/, /slow down/] },
  },
  {
    // retry-after (1 h) is beyond the 5 s total deadline: waiting would be pointless, answer now.
    name: '429 whose retry-after exceeds the deadline is returned without waiting',
    script: [{ kind: 'status', status: 429, headers: { 'retry-after': '3600' }, body: { error: { message: 'quota' } } }],
    status: 429,
    attempts: 1,
    want: { type: 'rate_limit_error', code: 'upstream_rate_limited', mentions: [/3600/] },
  },
  {
    name: '500 retried, then returned with its real status',
    script: [
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500, body: { error: { message: 'CUDA out of memory' } } },
    ],
    status: 500,
    attempts: 2,
    want: { type: 'upstream_error', code: 'upstream_server_error', mentions: [/HTTP 500/, /CUDA out of memory/] },
  },
  {
    name: '503 retried, then returned with its real status',
    script: [
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503, body: { detail: 'engine is loading' } },
    ],
    status: 503,
    attempts: 2,
    want: { type: 'upstream_error', code: 'upstream_server_error', mentions: [/HTTP 503/, /engine is loading/] },
  },
  {
    name: '200 without choices',
    script: [{ kind: 'no_choices' }],
    status: 502,
    attempts: 1,
    want: { type: 'upstream_error', code: 'upstream_bad_body', mentions: [/choices/, /rollout\.base_url/, /not a chat completion/] },
  },
];

for (const c of statusCases) {
  for (const stream of [false, true]) {
    test(`${c.name} (${stream ? 'streaming' : 'non-streaming'})`, async () => {
      const sid = newSession('fail');
      const sentBefore = h.upstream.received.length;
      h.upstream.script(...c.script);
      const body = { messages: [user('hello?')], session_id: sid };
      const res = await chatAnswer(h, body, stream);
      assert.equal(res.status, c.status);
      assertOpenAIError(res.json, c.want);
      assert.equal(h.upstream.received.length - sentBefore, c.attempts, 'upstream requests for this turn');
      await assertNotRecorded(h, sid);
      await assertStillServes(h);
    });
  }
}

/** The gateway's request counter for chat completions answered with `status`. */
async function chatRequests(status: number): Promise<number> {
  const text = await (await fetch(`${h.url}/metrics`)).text();
  const m = new RegExp(`openclaw_rl_requests_total\\{route="/v1/chat/completions",status="${status}"\\} (\\d+)`).exec(text);
  return m ? Number(m[1]) : 0;
}

test('a 503 then 200 retry is invisible to the client and recorded once', async () => {
  const [ok0, unavailable0] = [await chatRequests(200), await chatRequests(503)];
  for (const stream of [false, true]) {
    const sid = newSession('retry-ok');
    const sentBefore = h.upstream.received.length;
    h.upstream.script({ kind: 'status', status: 503 }, { kind: 'text', tokens: ['All', ' good'] });
    const body = { messages: [user('try again')], session_id: sid };
    if (stream) {
      const res = await chatStream(h, body);
      assert.equal(res.status, 200);
      assert.equal(res.events.at(-1), '[DONE]');
      const text = res.events
        .slice(0, -1)
        .map((e) => JSON.parse(e).choices[0]?.delta?.content ?? '')
        .join('');
      assert.equal(text, 'All good');
    } else {
      const res = await chat(h, body);
      assert.equal(res.status, 200);
      assert.equal(res.body.choices[0].message.content, 'All good');
    }
    assert.equal(h.upstream.received.length - sentBefore, 2);
    const view = await (await fetch(`${h.url}/sessions/${sid}`)).json();
    assert.deepEqual(
      view.turns.map((t: { turn_id: number; response: string }) => [t.turn_id, t.response]),
      [[1, 'All good']],
    );
    assert.equal(recordedTurns(h, sid).length, 1);
  }
  assert.equal((await chatRequests(200)) - ok0, 2, 'two client requests, each counted once');
  assert.equal(await chatRequests(503), unavailable0, 'the upstream 503s never reached the client');
});

test('a stream cut midway ends with an error event and [DONE], is not retried and not recorded', async () => {
  const sid = newSession('cut');
  const sentBefore = h.upstream.received.length;
  h.upstream.script({ kind: 'cut_stream', afterTokens: 2 });
  const res = await chatStream(h, { messages: [user('tell me a story')], session_id: sid });
  assert.equal(res.status, 200, 'the stream had started before the cut');
  assert.equal(res.events.at(-1), '[DONE]');
  const chunks = res.events.slice(0, -2).map((e) => JSON.parse(e));
  assert.equal(chunks.map((c) => c.choices[0].delta.content ?? '').join(''), 'partial answer');
  assertOpenAIError(JSON.parse(res.events.at(-2)!), {
    type: 'upstream_error',
    code: 'upstream_stream_cut',
    mentions: [/ended midway/, /not recorded/],
  });
  assert.equal(h.upstream.received.length - sentBefore, 1, 'never retried once the stream started');
  await assertNotRecorded(h, sid);
  await assertStillServes(h);
});

test('an error event from the upstream mid-stream is passed on as an error event, then [DONE]', async () => {
  const sid = newSession('midstream');
  h.upstream.script({ kind: 'error_mid_stream', afterTokens: 1 });
  const res = await chatStream(h, { messages: [user('go')], session_id: sid });
  assert.equal(res.status, 200);
  assert.equal(res.events.at(-1), '[DONE]');
  assertOpenAIError(JSON.parse(res.events.at(-2)!), {
    type: 'upstream_error',
    code: 'upstream_stream_error',
    mentions: [/scripted engine failure mid-stream/],
  });
  await assertNotRecorded(h, sid);
  await assertStillServes(h);
});

test('a non-streamed body cut midway is a 502 that says so, not a 500', async () => {
  const sid = newSession('cut-body');
  h.upstream.script({ kind: 'cut_body' });
  const res = await chat(h, { messages: [user('go')], session_id: sid });
  assert.equal(res.status, 502);
  assertOpenAIError(res.body, { type: 'upstream_error', mentions: [/rollout upstream/] });
  await assertNotRecorded(h, sid);
  await assertStillServes(h);
});

test('a client disconnecting mid-stream aborts the upstream request; nothing is recorded', { timeout: 10_000 }, async () => {
  const sid = newSession('gone');
  h.upstream.tokenDelayMs = 20;
  h.upstream.script({ kind: 'text', tokens: Array.from({ length: 100 }, (_, i) => ` t${i}`) });
  const closed = h.upstream.nextEarlyClose();
  const ac = new AbortController();
  const res = await fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    signal: ac.signal,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [user('long answer please')], session_id: sid, stream: true }),
  });
  const reader = res.body!.getReader();
  let seen = '';
  while (!seen.includes(' t1')) seen += new TextDecoder().decode((await reader.read()).value);
  ac.abort();
  const req = await closed;
  h.upstream.tokenDelayMs = 0;
  assert.equal(req.body.stream, true);
  await assertStillServes(h);
  await assertNotRecorded(h, sid);
});

test('a client disconnecting while a non-streamed answer is pending aborts the upstream request', { timeout: 10_000 }, async () => {
  const sid = newSession('gone-ns');
  h.upstream.script({ kind: 'slow_first_token', delayMs: 1500 });
  const closed = h.upstream.nextEarlyClose();
  const ac = new AbortController();
  const sentBefore = h.upstream.received.length;
  const pending = fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    signal: ac.signal,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [user('slow one')], session_id: sid }),
  }).catch((e: Error) => e);
  await until(() => h.upstream.received.length > sentBefore);
  ac.abort();
  assert.ok((await pending) instanceof Error);
  const req = await closed;
  assert.equal(req.body.stream, false);
  await assertStillServes(h);
  await assertNotRecorded(h, sid);
});

test('404 from a wrong path says to check /v1 in base_url', async () => {
  // The upstream serves only /v1/chat/completions; the user configured `…/api`, so we call /api/v1/….
  const hp = await startHarness({}, { baseUrlOf: (u) => u.replace(/\/v1$/, '/api') });
  try {
    hp.upstream.chatPath = '/v1/chat/completions';
    for (const stream of [false, true]) {
      const sid = newSession('path');
      const body = { messages: [user('hi')], session_id: sid };
      const res = await chatAnswer(hp, body, stream);
      assert.equal(res.status, 404);
      assertOpenAIError(res.json, {
        type: 'not_found_error',
        code: 'upstream_not_found',
        mentions: [/rollout\.base_url/, /\/v1/, /doubled|missing/, /\/api\/v1\/chat\/completions/],
      });
      await assertNotRecorded(hp, sid);
    }
    assert.equal(hp.upstream.received.at(-1)!.path, '/api/v1/chat/completions');
  } finally {
    await hp.close();
  }
});

test('connection refused (upstream stopped): 502 naming base_url; recovers when it is back', async () => {
  const hc = await startHarness();
  try {
    const port = Number(new URL(hc.upstream.url).port);
    await hc.upstream.stop();
    for (const stream of [false, true]) {
      const sid = newSession('refused');
      const body = { messages: [user('anyone there?')], session_id: sid };
      const res = await chatAnswer(hc, body, stream);
      assert.equal(res.status, 502);
      assertOpenAIError(res.json, {
        type: 'upstream_error',
        code: 'upstream_unreachable',
        mentions: [/connection refused/, /running/, /rollout\.base_url/, new RegExp(`127\\.0\\.0\\.1:${port}`)],
      });
      await assertNotRecorded(hc, sid);
    }
    const health = await (await fetch(`${hc.url}/healthz`)).json();
    assert.equal(health.status, 'degraded');
    assert.match(health.upstream.detail, /connection refused/);
    await hc.upstream.start(port);
    await assertStillServes(hc);
  } finally {
    await hc.close();
  }
});

test('DNS failure: 502 saying the host does not resolve', async () => {
  const hd = await startHarness({ 'rollout.base_url': 'http://policy-server.invalid:8000/v1' });
  try {
    for (const stream of [false, true]) {
      const sid = newSession('dns');
      const body = { messages: [user('hi')], session_id: sid };
      const res = await chatAnswer(hd, body, stream);
      assert.equal(res.status, 502);
      assertOpenAIError(res.json, {
        type: 'upstream_error',
        code: 'upstream_unreachable',
        mentions: [/does not resolve/, /rollout\.base_url/, /policy-server\.invalid/],
      });
      await assertNotRecorded(hd, sid);
    }
  } finally {
    await hd.close();
  }
});

test('TLS to a plain-http server: 502 asking whether https:// is right', async () => {
  const hs = await startHarness({ 'rollout.max_retries': 0 }, { baseUrlOf: (u) => u.replace(/^http:/, 'https:') });
  try {
    const sid = newSession('tls');
    const res = await chat(hs, { messages: [user('hi')], session_id: sid });
    assert.equal(res.status, 502);
    assertOpenAIError(res.body, {
      type: 'upstream_error',
      code: 'upstream_unreachable',
      mentions: [/TLS handshake failed/, /rollout\.base_url/, /https:\/\/ for a plain-http server/],
    });
    await assertNotRecorded(hs, sid);
  } finally {
    await hs.close();
  }
});

test('timeouts: first token (streaming) gives 504 and cancels the upstream call; the total deadline covers whole answers', {
  timeout: 15_000,
}, async () => {
  const ht = await startHarness({ 'rollout.first_token_timeout_s': 0.3, 'rollout.timeout_s': 2.5 });
  try {
    const sid = newSession('ftt');
    const closed = ht.upstream.nextEarlyClose();
    ht.upstream.script({ kind: 'slow_first_token', delayMs: 3000 });
    const res = await chatStream(ht, { messages: [user('hi')], session_id: sid });
    assert.equal(res.status, 504);
    assertOpenAIError(res.json, {
      type: 'upstream_error',
      code: 'upstream_first_token_timeout',
      mentions: [/first_token_timeout_s/, /300 ms/],
    });
    assert.equal((await closed).body.stream, true);
    await assertNotRecorded(ht, sid);

    // A non-streamed answer is only complete at the end: first_token_timeout_s must not cut it.
    ht.upstream.script({ kind: 'slow_first_token', delayMs: 1200, text: 'worth the wait' });
    const slow = await chat(ht, { messages: [user('think hard')], session_id: newSession('slow-ok') });
    assert.equal(slow.status, 200);
    assert.equal(slow.body.choices[0].message.content, 'worth the wait');

    // The total deadline, run side by side: a non-streamed call that never answers, and a stream
    // that stalls after its first chunk (the deadline covers the whole answer, not just its start).
    const sid2 = newSession('deadline');
    const sid3 = newSession('stall');
    const sentBefore = ht.upstream.received.length;
    ht.upstream.tokenDelayMs = 5000;
    ht.upstream.script({ kind: 'hang' }, { kind: 'text', text: 'never finished' });
    const hungP = chat(ht, { messages: [user('hi')], session_id: sid2 });
    await until(() => ht.upstream.received.length > sentBefore);
    const stalled = await chatStream(ht, { messages: [user('hi')], session_id: sid3 });
    const hung = await hungP;
    ht.upstream.tokenDelayMs = 0;
    assert.equal(hung.status, 504);
    assertOpenAIError(hung.body, { type: 'upstream_error', code: 'upstream_timeout', mentions: [/rollout\.timeout_s/, /2500 ms/] });
    assert.equal(stalled.status, 200);
    assert.equal(stalled.events.at(-1), '[DONE]');
    assertOpenAIError(JSON.parse(stalled.events.at(-2)!), {
      type: 'upstream_error',
      code: 'upstream_timeout',
      mentions: [/rollout\.timeout_s/],
    });
    assert.equal(ht.upstream.received.length - sentBefore, 2, 'no retry after the total deadline');
    await assertNotRecorded(ht, sid2);
    await assertNotRecorded(ht, sid3);
    await assertStillServes(ht);
  } finally {
    await ht.close();
  }
});
