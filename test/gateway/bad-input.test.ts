// Bad input that used to get a 5xx, a hang or a body not in OpenAI's shape,
// over real HTTP against a scripted upstream: session ids that cannot go into a header as they
// are, non-string session ids, deeply nested bodies, an upstream `choices: [null]`, errors Node or
// Fastify raise before our handler (sent over raw sockets), the one session-id limit, and a
// streamed 429 whose retry-after is longer than the first-token timeout.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, postJson, type Harness } from '../support/harness.ts';
import { rawRequest } from '../support/raw-http.ts';
import { MAX_SESSION_ID_CHARS } from '../../src/sessions/session-id.ts';
import { assertOpenAIError, assertStillServes, chat, recordedTurns } from './expect.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

const user = (content: string) => ({ role: 'user', content });

/** A streamed chat request with fetch; status, the x-session-id header and the SSE events. */
async function stream(body: Record<string, unknown>): Promise<{ status: number; header: string | null; events: string[] }> {
  const res = await fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
    signal: AbortSignal.timeout(5000),
  });
  const text = await res.text();
  return {
    status: res.status,
    header: res.headers.get('x-session-id'),
    events: text
      .split('\n\n')
      .filter((b) => b.startsWith('data: '))
      .map((b) => b.slice(6)),
  };
}

test('session ids with Chinese, emoji or spaces are answered (plain and streamed), their header decodes to the id', async () => {
  for (const id of ['会话-一', 'emoji-😀-session', ' padded id ', '100%-sure']) {
    h.upstream.script({ kind: 'text', text: 'ok' });
    const plain = await chat(h, { messages: [user('hi')], session_id: id });
    assert.equal(plain.status, 200, `plain ${JSON.stringify(id)}`);
    assert.equal(decodeURIComponent(plain.headers.get('x-session-id')!), id);
    h.upstream.script({ kind: 'text', text: 'ok' });
    const s = await stream({ messages: [user('hi')], session_id: id });
    assert.equal(s.status, 200, `streamed ${JSON.stringify(id)}`);
    assert.equal(s.events.at(-1), '[DONE]');
    assert.equal(decodeURIComponent(s.header!), id);
    assert.equal(recordedTurns(h, id).length, 2, 'both turns recorded under the id');
    const view = await fetch(`${h.url}/sessions/${encodeURIComponent(id)}`);
    assert.equal(view.status, 200, 'the session reads back');
    assert.equal((await view.json()).turns.length, 2);
  }
  assert.equal(decodeURIComponent('plain-ascii-id'), 'plain-ascii-id');
});

test('a prompt_cache_key with emoji or Chinese gives an inferred session whose header is encoded', async () => {
  h.upstream.script({ kind: 'text', text: 'ok' });
  const res = await chat(h, { messages: [user('cache key')], prompt_cache_key: '缓存🔑:3' });
  assert.equal(res.status, 200);
  assert.equal(decodeURIComponent(res.headers.get('x-session-id')!), 'pck-缓存🔑');
  h.upstream.script({ kind: 'text', text: 'ok' });
  const s = await stream({ messages: [user('cache key 2')], prompt_cache_key: 'line\r\nbreak:1' });
  assert.equal(s.status, 200);
  assert.equal(decodeURIComponent(s.header!), 'pck-line\r\nbreak');
});

test('explicit session ids with CR/LF, NUL, a lone surrogate or over the length limit are a 400 naming session_id', async () => {
  const sentBefore = h.upstream.received.length;
  for (const id of ['a\r\nb', 'nul\u0000id', 'tab\tid', 'half-\ud83d', 'x'.repeat(MAX_SESSION_ID_CHARS + 1), '   ']) {
    for (const streamed of [false, true]) {
      const res = await postJson(`${h.url}/v1/chat/completions`, { messages: [user('hi')], session_id: id, stream: streamed });
      assert.equal(res.status, 400, JSON.stringify(id));
      assertOpenAIError(res.body, {
        type: 'invalid_request_error',
        param: 'session_id',
        code: 'invalid_session_id',
        mentions: [/session id/],
      });
    }
    const viaSession = await postJson(`${h.url}/session`, { session_id: id, messages: [user('hi')] });
    assert.equal(viaSession.status, 400);
    assertOpenAIError(viaSession.body, { type: 'invalid_request_error', param: 'session_id' });
  }
  const long = await postJson(
    `${h.url}/v1/chat/completions`,
    { messages: [user('hi')] },
    { 'x-session-id': 'h'.repeat(MAX_SESSION_ID_CHARS + 1) },
  );
  assert.equal(long.status, 400);
  assertOpenAIError(long.body, {
    type: 'invalid_request_error',
    param: 'x-session-id',
    mentions: [new RegExp(`limit is ${MAX_SESSION_ID_CHARS}`)],
  });
  assert.equal(h.upstream.received.length, sentBefore, 'none reached the upstream');
});

test('one session-id limit: an id of exactly the limit works in chat and reads back; one over is a 400, not a 414', async () => {
  const id = '长'.repeat(MAX_SESSION_ID_CHARS);
  h.upstream.script({ kind: 'text', text: 'ok' });
  assert.equal((await chat(h, { messages: [user('long id')], session_id: id })).status, 200);
  const view = await fetch(`${h.url}/sessions/${encodeURIComponent(id)}`);
  assert.equal(view.status, 200);
  assert.equal((await view.json()).session_id, id);
  const over = await fetch(`${h.url}/sessions/${encodeURIComponent(id + '长')}`);
  assert.equal(over.status, 400);
  assertOpenAIError(await over.json(), { type: 'invalid_request_error', param: 'id', code: 'invalid_session_id' });
  const wayOver = await fetch(`${h.url}/sessions/${'y'.repeat(20_000)}`);
  assert.ok(wayOver.status >= 400 && wayOver.status < 500, `status ${wayOver.status}`);
  assertOpenAIError(await wayOver.json(), { type: 'invalid_request_error' });
});

test('POST /session with a session_id that is not a string or number is a 400', async () => {
  for (const sid of [{ toString: 1 }, ['a'], true, {}]) {
    const res = await postJson(`${h.url}/session`, { session_id: sid, messages: [user('hi')] });
    assert.equal(res.status, 400, JSON.stringify(sid));
    assertOpenAIError(res.body, {
      type: 'invalid_request_error',
      param: 'session_id',
      code: 'invalid_value',
      mentions: [/string or a number/],
    });
  }
  await assertStillServes(h);
});

test('a body nested deeper than the limit is a 400 naming the limit, on every JSON route', async () => {
  const deep = (n: number) => '{"messages":[{"role":"user","content":"hi"}],"extra":' + '['.repeat(n) + ']'.repeat(n) + '}';
  const sentBefore = h.upstream.received.length;
  for (const path of ['/v1/chat/completions', '/session', '/v1/feedback']) {
    for (const n of [20_000, 101]) {
      const res = await postJson(`${h.url}${path}`, deep(n));
      assert.equal(res.status, 400, `${path} depth ${n}`);
      assertOpenAIError(res.body, { type: 'invalid_request_error', code: 'body_too_deep', mentions: [/100 levels/] });
    }
  }
  // Exactly the limit (the body itself is level 1) is accepted.
  h.upstream.script({ kind: 'text', text: 'ok' });
  assert.equal((await postJson(`${h.url}/v1/chat/completions`, deep(99).replace('"hi"}]', '"hi"}],"turn_type":"side"'))).status, 200);
  // Brackets inside strings are text, not nesting.
  h.upstream.script({ kind: 'text', text: 'ok' });
  const inString = await chat(h, { messages: [user('['.repeat(5000) + '\\"{'.repeat(500))], turn_type: 'side' });
  assert.equal(inString.status, 200);
  assert.equal(h.upstream.received.length - sentBefore, 2);
});

test('an upstream 200 whose choices is [null] is a 502 in OpenAI shape (plain and /session)', async () => {
  for (const path of ['/v1/chat/completions', '/session']) {
    h.upstream.script({ kind: 'status', status: 200, body: { id: 'x', object: 'chat.completion', choices: [null] } });
    const res = await postJson(`${h.url}${path}`, { messages: [user('hi')], session_id: `null-choice-${path.length}` });
    assert.equal(res.status, 502, path);
    assertOpenAIError(res.body, { type: 'upstream_error', code: 'upstream_bad_body', mentions: [/choices/] });
  }
  await assertStillServes(h);
});

test('a streamed 429 whose retry-after outlasts first_token_timeout_s keeps its status (429, not 504)', async () => {
  // The harness: first_token_timeout_s 2, timeout_s 5, max_retries 1; the wait (3 s) fits the
  // total deadline but not the first-token one.
  h.upstream.script({ kind: 'status', status: 429, headers: { 'retry-after': '3' }, body: { error: { message: 'busy' } } });
  const start = performance.now();
  const res = await postJson(`${h.url}/v1/chat/completions`, { messages: [user('hi')], stream: true, session_id: 'rate-limited' });
  assert.equal(res.status, 429);
  assertOpenAIError(res.body, { type: 'rate_limit_error', code: 'upstream_rate_limited', mentions: [/busy/] });
  assert.ok(performance.now() - start < 1500, 'answered at once, without waiting for a retry that could not start in time');
});

const raw = (text: string) => rawRequest(h.url, text, 3000);

test('errors Node and Fastify raise before our handler are in OpenAI shape', async () => {
  const cases: Array<{ name: string; request: string; status: number; code: string }> = [
    { name: 'bad URL escape', request: 'GET /v1/models% HTTP/1.1\r\nHost: x\r\n\r\n', status: 400, code: 'invalid_url' },
    { name: 'bad escape in a session path', request: 'GET /sessions/%E4%ZZ HTTP/1.1\r\nHost: x\r\n\r\n', status: 400, code: 'invalid_url' },
    {
      name: 'header line without a colon',
      request: 'GET /v1/models HTTP/1.1\r\nHost: x\r\nthis is not a header\r\n\r\n',
      status: 400,
      code: 'malformed_request',
    },
    {
      name: 'invalid character in a header value',
      request: 'GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Session-Id: a\u0001b\r\n\r\n',
      status: 400,
      code: 'malformed_request',
    },
    { name: 'garbage request line', request: 'HELLO THERE\r\n\r\n', status: 400, code: 'malformed_request' },
    {
      name: 'headers over 16 KB',
      request: `GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      status: 431,
      code: 'headers_too_large',
    },
    {
      name: 'unknown Expect',
      request:
        'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
      status: 417,
      code: 'expectation_failed',
    },
    {
      name: 'over-long session path',
      request: `GET /sessions/${'y'.repeat(4000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      status: 414,
      code: 'uri_too_long',
    },
    {
      name: 'bad Content-Length',
      request: 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
      status: 400,
      code: 'malformed_request',
    },
  ];
  for (const c of cases) {
    const res = await raw(c.request);
    assert.equal(res.hung, false, `${c.name}: answered`);
    assert.equal(res.status, c.status, `${c.name}: status`);
    assert.match(res.headers['content-type'] ?? '', /application\/json/, c.name);
    assertOpenAIError(JSON.parse(res.body), { type: 'invalid_request_error', code: c.code });
  }
  await assertStillServes(h);
});

test('a prompt_cache_key too long for a session id is not used as one (the session is inferred instead) and reads back', async () => {
  h.upstream.script({ kind: 'text', text: 'ok' });
  const res = await chat(h, { messages: [user('very long cache key')], prompt_cache_key: `${'k'.repeat(300)}:1` });
  assert.equal(res.status, 200);
  const id = decodeURIComponent(res.headers.get('x-session-id')!);
  assert.ok(!id.startsWith('pck-'), `inferred id ${id.slice(0, 40)}…`);
  assert.equal((await fetch(`${h.url}/sessions/${encodeURIComponent(id)}`)).status, 200);
});

test('headers that do not arrive within 10 s get a 408 in OpenAI shape and the connection is closed', async () => {
  const res = await rawRequest(h.url, 'GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Slow: ', 15_000);
  assert.equal(res.hung, false);
  assert.equal(res.status, 408);
  assertOpenAIError(JSON.parse(res.body), { type: 'invalid_request_error', code: 'request_timeout' });
  assert.ok(res.ms > 9000 && res.ms < 12_500, `answered after ${(res.ms / 1000).toFixed(1)} s`);
});
