// Prompt shutdown and back-pressure over real HTTP: a stream in flight that
// ends within server.shutdown_grace_s finishes and is recorded; one that does not is ended with an
// error event and [DONE] and is not recorded, and close returns soon after the grace period; new
// connections are refused; a client that
// stops reading holds the upstream (the gateway stops reading it) and its turn is never recorded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startHarness, type Harness } from '../support/harness.ts';
import { assertOpenAIError, recordedTurns, until } from './expect.ts';

const user = (content: string) => ({ role: 'user', content });

/** Starts a streamed request; resolves with its SSE events once the response ends. */
function streamEvents(h: Harness, body: Record<string, unknown>): Promise<string[]> {
  return fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  })
    .then((res) => res.text())
    .then((text) =>
      text
        .split('\n\n')
        .filter((b) => b.startsWith('data: '))
        .map((b) => b.slice(6)),
    );
}

/** Closes the server; resolves with the seconds it took. */
async function timedClose(h: Harness): Promise<number> {
  const start = performance.now();
  await h.server.close();
  await h.upstream.stop();
  return (performance.now() - start) / 1000;
}

test('a stream that ends within the grace period finishes and is recorded', async () => {
  const h = await startHarness({ 'server.shutdown_grace_s': 5 });
  h.upstream.tokenDelayMs = 100;
  h.upstream.script({ kind: 'text', tokens: ['one', ' two', ' three', ' four', ' five'] });
  const events = streamEvents(h, { messages: [user('count')], session_id: 'drain-ok' });
  await until(() => h.upstream.received.length === 1);
  const seconds = await timedClose(h);
  const got = await events;
  assert.equal(got.at(-1), '[DONE]');
  const text = got
    .slice(0, -1)
    .map((e) => JSON.parse(e).choices?.[0]?.delta?.content ?? '')
    .join('');
  assert.equal(text, 'one two three four five', 'the whole answer arrived');
  assert.equal(recordedTurns(h, 'drain-ok').length, 1, 'and the turn was recorded');
  assert.ok(seconds < 5, `close waited for the stream only (${seconds.toFixed(2)} s)`);
});

test('a stream still running after the grace period ends with an error event and [DONE]; new connections are refused', async () => {
  const h = await startHarness({ 'server.shutdown_grace_s': 0.5 });
  h.upstream.tokenDelayMs = 100;
  h.upstream.script({ kind: 'text', tokens: Array.from({ length: 200 }, (_, i) => ` w${i}`) });
  const events = streamEvents(h, { messages: [user('talk for a long time')], session_id: 'drain-cut' });
  await until(() => h.upstream.streamedTokens >= 2);
  const closing = timedClose(h);
  await new Promise((r) => setTimeout(r, 100));
  await assert.rejects(fetch(`${h.url}/v1/models`), 'a new connection is refused once shutdown began');
  const seconds = await closing;
  const got = await events;
  assert.equal(got.at(-1), '[DONE]');
  const error = JSON.parse(got.at(-2)!);
  assertOpenAIError(error, { type: 'server_error', code: 'server_shutting_down', mentions: [/shutting down/] });
  assert.ok(got.length > 3, 'the tokens streamed before the cut were delivered');
  assert.equal(recordedTurns(h, 'drain-cut').length, 0, 'a cut answer is not a turn');
  assert.ok(seconds < 0.5 + 1, `close took ${seconds.toFixed(2)} s, grace 0.5 s`);
});

test('a request arriving on an open connection during the drain gets a 503 in OpenAI shape', async () => {
  const h = await startHarness({ 'server.shutdown_grace_s': 0.5 });
  h.upstream.tokenDelayMs = 100;
  h.upstream.script({ kind: 'text', tokens: Array.from({ length: 100 }, (_, i) => ` w${i}`) });
  const body = JSON.stringify({ messages: [user('long')], session_id: 'drain-503', stream: true });
  const socket = connect(Number(new URL(h.url).port), '127.0.0.1');
  let received = '';
  socket.on('data', (c) => (received += c.toString()));
  const closed = new Promise((r) => socket.once('close', r));
  socket.write(
    `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  await until(() => h.upstream.streamedTokens >= 1);
  const closing = timedClose(h);
  await new Promise((r) => setTimeout(r, 100));
  // A second (pipelined) request on the busy connection, sent once the drain began.
  socket.write('GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n');
  await closing;
  await closed;
  const second = received.slice(received.indexOf('HTTP/1.1', 10));
  assert.match(second, /^HTTP\/1\.1 503 /);
  assert.match(second, /connection: close/i);
  assertOpenAIError(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)), { type: 'server_error', code: 'server_shutting_down' });
});

test('back-pressure: a client that stops reading holds the upstream, and its turn is not recorded', async () => {
  const h = await startHarness({ 'rollout.timeout_s': 30 });
  h.upstream.respectBackPressure = true;
  const tokens = 6000;
  h.upstream.script({ kind: 'text', tokens: Array.from({ length: tokens }, () => 'a'.repeat(2000)) });
  const body = JSON.stringify({ messages: [user('write a lot')], session_id: 'never-reads', stream: true });
  const socket = connect(Number(new URL(h.url).port), '127.0.0.1');
  socket.pause(); // never read: the kernel buffers fill, then the gateway's socket
  socket.write(
    `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  // Wait until the upstream stalls (no progress for 500 ms).
  let last = -1;
  await until(() => h.upstream.streamedTokens > 0);
  while (h.upstream.streamedTokens !== last) {
    last = h.upstream.streamedTokens;
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.ok(last < tokens / 2, `the upstream stalled at ${last} of ${tokens} tokens (the gateway stopped reading it)`);
  assert.equal(recordedTurns(h, 'never-reads').length, 0);
  const aborted = h.upstream.nextEarlyClose();
  socket.destroy();
  await aborted; // the client went away: the gateway abandons the upstream call
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(recordedTurns(h, 'never-reads').length, 0, 'an answer the client never got is not a turn');
  await h.close();
});
