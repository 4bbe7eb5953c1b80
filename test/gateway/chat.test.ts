import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { startHarness, postJson, readSse, type Harness } from '../support/harness.ts';
import { fakeTokenId } from '../support/scripted-upstream.ts';
import { readRecords } from '../../src/sessions/index.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

const user = (content: string) => ({ role: 'user', content });

test('non-streaming: answer passes through, unknown fields reach upstream, our fields do not', async () => {
  h.upstream.script({ kind: 'text', text: 'Four.' });
  const res = await postJson(`${h.url}/v1/chat/completions`, {
    model: 'whatever-client-says',
    messages: [user('2+2?')],
    session_id: 'nonstream-1',
    turn_type: 'main',
    prompt_logprobs: 2,
    custom_engine_flag: { a: 1 },
    max_tokens: 100000,
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.choices[0].message.content, 'Four.');
  assert.equal(res.body.choices[0].logprobs, null, 'log-probs the client did not ask for are not returned');
  const sent = h.upstream.received.at(-1)!.body;
  assert.equal(sent.prompt_logprobs, 2);
  assert.deepEqual(sent.custom_engine_flag, { a: 1 });
  assert.equal(sent.session_id, undefined);
  assert.equal(sent.turn_type, undefined);
  assert.equal(sent.model, 'policy-upstream');
  assert.equal(sent.max_tokens, 256, 'absurd max_tokens clamped to rollout.max_tokens');
  assert.equal(sent.logprobs, true);
  assert.equal(sent.return_token_ids, true);
  assert.equal(res.headers.get('x-session-id'), 'nonstream-1');
});

test('streaming with the official openai client: deltas, finish_reason, usage chunk', async () => {
  h.upstream.script({ kind: 'text', tokens: ['Hel', 'lo', ' there'] });
  const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: 'unused', maxRetries: 0 });
  const stream = await client.chat.completions.create(
    {
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    },
    { headers: { 'X-Session-Id': 'stream-1', 'X-Turn-Type': 'main' } },
  );
  const deltas: string[] = [];
  let finish: string | null = null;
  let usage: unknown;
  for await (const chunk of stream) {
    if (chunk.choices[0]?.delta?.content) deltas.push(chunk.choices[0].delta.content);
    if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
    if (chunk.usage) usage = chunk.usage;
  }
  assert.deepEqual(deltas, ['Hel', 'lo', ' there']);
  assert.equal(finish, 'stop');
  assert.deepEqual(usage, { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 });
});

test('streaming is real: the first chunk arrives before the upstream finished', async () => {
  h.upstream.tokenDelayMs = 150;
  h.upstream.script({ kind: 'text', tokens: ['a', 'b', 'c', 'd', 'e', 'f'] });
  const t0 = Date.now();
  const res = await fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [user('x')], stream: true, session_id: 'real-stream' }),
  });
  const reader = res.body!.getReader();
  let firstAt = 0;
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const s = new TextDecoder().decode(value);
    if (firstAt === 0 && s.includes('"content":"a"')) firstAt = Date.now() - t0;
    text += s;
  }
  const total = Date.now() - t0;
  h.upstream.tokenDelayMs = 0;
  assert.ok(text.endsWith('data: [DONE]\n\n'));
  assert.ok(firstAt > 0 && firstAt < total - 400, `first token at ${firstAt} ms of ${total} ms total`);
});

test('an upstream that ends its response late after [DONE]: the client is answered at [DONE], the upstream connection is not cut', async () => {
  h.upstream.lingerAfterDoneMs = 600;
  const closedBefore = h.upstream.closedEarly.length;
  h.upstream.script({ kind: 'text', tokens: ['late', ' end'] });
  const t0 = Date.now();
  const res = await fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [user('x')], stream: true, session_id: 'late-end' }),
  });
  const text = await res.text();
  const elapsed = Date.now() - t0;
  assert.ok(text.includes('"content":" end"') && text.endsWith('data: [DONE]\n\n'));
  assert.ok(elapsed < 600, `the client waited ${elapsed} ms, past the upstream's [DONE]`);
  await new Promise((r) => setTimeout(r, 700));
  h.upstream.lingerAfterDoneMs = 0;
  assert.equal(h.upstream.closedEarly.length, closedBefore, 'the gateway read the response to its end instead of aborting it');
});

test('tool calls stream through and are recorded with token ids and log-probs', async () => {
  h.upstream.script({ kind: 'tool_call', name: 'read_file', arguments: '{"path":"a.txt"}', id: 'call_rec_1' });
  const res = await fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-id': 'tools-1' },
    body: JSON.stringify({
      messages: [user('read a.txt')],
      stream: true,
      tools: [{ type: 'function', function: { name: 'read_file', parameters: {} } }],
    }),
  });
  const events = await readSse(res);
  assert.equal(events.at(-1), '[DONE]');
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
  const tc = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
  assert.equal(tc[0].function.name, 'read_file');
  assert.equal(tc.map((t: any) => t.function.arguments ?? '').join(''), '{"path":"a.txt"}');
  assert.equal(chunks.at(-1).choices[0].finish_reason, 'tool_calls');
  // Next request of the session: the tool result becomes turn 1's next state.
  h.upstream.script({ kind: 'text', text: 'The file says hi.' });
  await postJson(`${h.url}/v1/chat/completions`, {
    session_id: 'tools-1',
    messages: [
      user('read a.txt'),
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_rec_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_rec_1', content: 'hi' },
    ],
  });
  const { turns } = readRecords(join(h.outDir, 'records', 'turns.jsonl'));
  const t1 = turns.find((t) => t.session_id === 'tools-1' && t.turn_id === 1)!;
  assert.deepEqual(t1.response_ids, ['<tool_call>read_file', '{"path":"a.txt"}', '</tool_call>'].map(fakeTokenId));
  assert.equal(t1.logprobs!.length, 3);
  assert.equal((t1.tool_calls as any)[0].function.arguments, '{"path":"a.txt"}');
  assert.deepEqual(t1.next_state, { role: 'tool', content: 'hi' });
  assert.deepEqual(t1.prompt_ids, [1, 2, 3]);
});

test('client asking for logprobs gets them untouched', async () => {
  h.upstream.script({ kind: 'text', tokens: ['x', 'y'] });
  const res = await postJson(`${h.url}/v1/chat/completions`, { messages: [user('q')], logprobs: true, top_logprobs: 1, session_id: 'lp' });
  assert.equal(res.body.choices[0].logprobs.content.length, 2);
  assert.equal(res.body.choices[0].logprobs.content[0].logprob, -0.05);
});

test('/v1/models, /healthz, /metrics', async () => {
  const models = await (await fetch(`${h.url}/v1/models`)).json();
  assert.equal(models.data[0].id, 'policy-upstream');
  const health = await (await fetch(`${h.url}/healthz`)).json();
  assert.equal(health.status, 'ok');
  assert.equal(health.upstream.ok, true);
  assert.equal(typeof health.counters.requests_without_session_id, 'number');
  const metrics = await (await fetch(`${h.url}/metrics`)).text();
  assert.match(metrics, /openclaw_rl_requests_total\{route="\/v1\/chat\/completions",status="200"\} \d+/);
  assert.match(metrics, /openclaw_rl_sessions_main_turns \d+/);
});

test('requests without session id or turn type are counted and reported, not dropped', async () => {
  const before = (await (await fetch(`${h.url}/healthz`)).json()).counters;
  h.upstream.script({ kind: 'text', text: 'ok' });
  const res = await postJson(`${h.url}/v1/chat/completions`, { messages: [user('anonymous hello')] });
  assert.equal(res.status, 200);
  const health = await (await fetch(`${h.url}/healthz`)).json();
  assert.equal(health.counters.requests_without_session_id, before.requests_without_session_id + 1);
  assert.equal(health.counters.requests_without_turn_type, before.requests_without_turn_type + 1);
  assert.ok(health.warnings.some((w: string) => /no session id/.test(w)));
  const sid = res.headers.get('x-session-id')!;
  assert.match(sid, /^s-/);
  const view = await (await fetch(`${h.url}/sessions/${sid}`)).json();
  assert.equal(view.turns.length, 1, 'the header-less turn was recorded as a main turn');
});

test('records file has messages, prompt, response, ids, log-probs and timestamps', () => {
  const lines = readFileSync(join(h.outDir, 'records', 'turns.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const turn = lines.find((l) => l.type === 'turn' && l.session_id === 'nonstream-1');
  assert.equal(turn.turn_id, 1);
  assert.equal(turn.response_text, 'Four.');
  assert.deepEqual(turn.messages, [user('2+2?')]);
  assert.ok(Array.isArray(turn.response_ids) && turn.response_ids.length === turn.logprobs.length);
  assert.ok(Date.parse(turn.started_at) <= Date.parse(turn.completed_at));
});
