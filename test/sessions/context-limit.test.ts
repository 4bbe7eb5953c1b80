// The context guard in the real gateway: an over-long prompt gets an OpenAI-style 400 naming both
// lengths before the upstream is called, and the session is left untouched.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildGateway, ServerMetrics, SessionViews, TokenResolver } from '../../src/gateway/index.ts';
import { OpenAICompatibleChannel } from '../../src/engines/openai-compatible/index.ts';
import { SessionTracker, createContextGuard, compileIgnorePatterns } from '../../src/sessions/index.ts';
import { ScriptedUpstream } from '../support/scripted-upstream.ts';
import { postJson } from '../support/harness.ts';

let upstream: ScriptedUpstream;
let app: FastifyInstance;
let channel: OpenAICompatibleChannel;
let tracker: SessionTracker;
let url: string;

// One "token" per whitespace-separated word: easy to count by hand.
const wordCount = (messages: Array<{ content?: unknown }>) =>
  messages
    .map(
      (m) =>
        String(m.content ?? '')
          .split(/\s+/)
          .filter(Boolean).length,
    )
    .reduce((a, b) => a + b, 0);

before(async () => {
  upstream = await new ScriptedUpstream().start();
  channel = new OpenAICompatibleChannel({
    channel: 'rollout',
    baseUrl: upstream.url,
    model: 'policy',
    timeoutMs: 5000,
    firstTokenTimeoutMs: 2000,
    maxRetries: 0,
  });
  tracker = new SessionTracker({
    defaultTurnType: 'main',
    fallback: 'infer',
    idleTimeoutMs: 60_000,
    maxSessions: 100,
    ignorePatterns: compileIgnorePatterns([]),
  });
  app = buildGateway({
    channel,
    tracker,
    tokens: new TokenResolver(),
    views: new SessionViews(),
    metrics: new ServerMetrics(),
    servedModelName: 'policy',
    upstreamModelId: 'policy',
    maxTokensLimit: 64,
    returnTokenIds: true,
    sidePatterns: [],
    bodyLimitBytes: 1 << 20,
    contextGuard: createContextGuard(8, wordCount),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address() as { port: number };
  url = `http://127.0.0.1:${addr.port}`;
});
after(async () => {
  await app.close();
  await channel.close();
  await upstream.stop();
});

test('a prompt over rollout.context_length: 400 context_length_exceeded, upstream never called', async () => {
  const res = await postJson(
    `${url}/v1/chat/completions`,
    {
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'please count all of these words now' },
      ],
      stream: true,
    },
    { 'x-session-id': 'long' },
  );
  assert.equal(res.status, 400);
  assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'message', 'param', 'type']);
  assert.equal(res.body.error.code, 'context_length_exceeded');
  assert.equal(res.body.error.type, 'invalid_request_error');
  assert.match(res.body.error.message, /maximum context length is 8 tokens, but the prompt has 9 tokens/);
  assert.equal(upstream.received.length, 0, 'refused before the upstream');
  assert.equal(tracker.size, 0, 'no session was opened for it');
});

test('a prompt that fits goes through', async () => {
  upstream.script({ kind: 'text', text: 'ok' });
  const res = await postJson(
    `${url}/v1/chat/completions`,
    { messages: [{ role: 'user', content: 'eight words are exactly what this prompt has' }] },
    { 'x-session-id': 'short' },
  );
  assert.equal(res.status, 200);
  assert.equal(res.body.choices[0].message.content, 'ok');
  assert.equal(upstream.received.length, 1);
});
