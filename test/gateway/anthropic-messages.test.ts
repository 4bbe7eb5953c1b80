// POST /v1/messages through the official @anthropic-ai/sdk, in front of a scripted
// OpenAI-compatible upstream: answers, streamed events, tool use with tool_result next states,
// recorded turns, session ids from Claude Code's header, side calls, and errors in Anthropic's shape.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { startHarness, postJson, type Harness } from '../support/harness.ts';
import { fakeTokenId } from '../support/scripted-upstream.ts';
import { readRecords } from '../../src/sessions/index.ts';

let h: Harness;
let client: Anthropic;
before(async () => {
  h = await startHarness({ 'server.model_aliases': ['claude-*'] }, { apiKey: 'k-anthropic' });
  client = new Anthropic({ baseURL: h.url, apiKey: 'k-anthropic', maxRetries: 0 });
});
after(async () => {
  await h.close();
});

const turns = () => readRecords(join(h.outDir, 'records', 'turns.jsonl')).turns;
const session = (id: string) => ({ headers: { 'x-claude-code-session-id': id } });
// Claude Code's calls without tools are its helpers (side turns): tool-less tests name the session themselves.
const plain = (id: string) => ({ headers: { 'x-session-id': id } });

test('messages.create: text answer, stop_reason, usage; the upstream gets the canonical chat turn', async () => {
  h.upstream.script({ kind: 'text', tokens: ['Four', '.'] });
  const msg = await client.messages.create(
    {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: '2+2?' }] }],
      stop_sequences: ['###'],
    },
    plain('cc-1'),
  );
  assert.equal(msg.type, 'message');
  assert.equal(msg.role, 'assistant');
  assert.equal(msg.model, 'claude-sonnet-4-5');
  assert.deepEqual(msg.content, [{ type: 'text', text: 'Four.' }]);
  assert.equal(msg.stop_reason, 'end_turn');
  assert.equal(msg.usage.input_tokens, 10);
  assert.equal(msg.usage.output_tokens, 2);
  const sent = h.upstream.received.at(-1)!.body;
  assert.deepEqual(sent.messages, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: '2+2?' },
  ]);
  assert.equal(sent.model, 'policy-upstream');
  assert.deepEqual(sent.stop, ['###']);
  assert.equal(sent.logprobs, true, 'main turns ask for token data');
  const t = turns().find((x) => x.session_id === 'cc-1')!;
  assert.deepEqual(t.response_ids, ['Four', '.'].map(fakeTokenId));
  assert.equal(t.logprobs!.length, 2);
});

test('tool use: tool_use block with parsed input; the tool_result (is_error) is the next state, as an error', async () => {
  h.upstream.script({ kind: 'tool_call', name: 'Bash', arguments: '{"command":"ls"}', id: 'call_ls' });
  const tools: Anthropic.Tool[] = [
    { name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } },
    { type: 'web_search_20250305', name: 'web_search' } as unknown as Anthropic.Tool,
    { name: 'DeferredToolPlaceholder', input_schema: { type: 'object' }, defer_loading: true } as unknown as Anthropic.Tool,
  ];
  const first = await client.messages.create(
    { model: 'claude-sonnet-4-5', max_tokens: 100, tools, messages: [{ role: 'user', content: 'list files' }] },
    session('cc-tools'),
  );
  assert.equal(first.stop_reason, 'tool_use');
  const use = first.content.find((b) => b.type === 'tool_use')!;
  assert.equal(use.type, 'tool_use');
  assert.equal(use.name, 'Bash');
  assert.deepEqual(use.input, { command: 'ls' });
  const sent = h.upstream.received.at(-1)!.body;
  assert.deepEqual(
    (sent.tools as any[]).map((t) => t.function.name),
    ['Bash'],
    'the server tool and the deferred tool are left out of the prompt',
  );
  h.upstream.script({ kind: 'text', text: 'The folder is empty.' });
  const second = await client.messages.create(
    {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      tools,
      messages: [
        { role: 'user', content: 'list files' },
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: use.id,
              content: 'ls: permission denied\n\n<system-reminder>\nThe task list is empty.\n</system-reminder>',
              is_error: true,
            },
          ],
        },
      ],
    },
    session('cc-tools'),
  );
  assert.equal((second.content[0] as Anthropic.TextBlock).text, 'The folder is empty.');
  const recorded = turns().filter((x) => x.session_id === 'cc-tools');
  assert.equal(recorded.length, 2);
  const t1 = recorded.find((x) => x.turn_id === 1)!;
  assert.deepEqual(
    t1.next_state,
    { role: 'tool', content: 'Error: ls: permission denied' },
    "Claude Code's system-reminder is not the tool's output",
  );
  const view = await (await fetch(`${h.url}/sessions/cc-tools`, { headers: { authorization: 'Bearer k-anthropic' } })).json();
  assert.equal(view.named_by, 'x-claude-code-session-id');
  const health = await (await fetch(`${h.url}/healthz`)).json();
  assert.ok(health.protocols['anthropic-messages'].requests >= 2);
  assert.ok(health.protocols['anthropic-messages'].left_out['tool:web_search_20250305'] >= 2);
  assert.ok(health.protocols['anthropic-messages'].left_out['tool:deferred'] >= 2);
});

test('messages.stream: the real event sequence, text deltas and the final message', async () => {
  h.upstream.script({ kind: 'text', tokens: ['Hel', 'lo', ' there'] });
  const stream = client.messages.stream(
    { model: 'claude-sonnet-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] },
    plain('cc-stream'),
  );
  const types: string[] = [];
  const deltas: string[] = [];
  stream.on('streamEvent', (e) => types.push(e.type));
  stream.on('text', (d) => deltas.push(d));
  const final = await stream.finalMessage();
  assert.deepEqual(deltas, ['Hel', 'lo', ' there']);
  assert.deepEqual(
    final.content,
    [{ type: 'text', text: 'Hello there', citations: null }].map(({ citations: _c, ...b }) => b),
  );
  assert.equal(final.stop_reason, 'end_turn');
  assert.deepEqual(types, [
    'message_start',
    'content_block_start',
    'content_block_delta',
    'content_block_delta',
    'content_block_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
  ]);
  assert.ok(turns().some((t) => t.session_id === 'cc-stream'));
});

test('messages.stream with a tool call: input_json_delta builds the tool input', async () => {
  h.upstream.script({ kind: 'tool_call', name: 'Read', arguments: '{"file_path":"/a.txt"}', id: 'call_r' });
  const final = await client.messages
    .stream(
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 50,
        tools: [{ name: 'Read', input_schema: { type: 'object' } }],
        messages: [{ role: 'user', content: 'read a.txt' }],
      },
      session('cc-stream-tool'),
    )
    .finalMessage();
  assert.equal(final.stop_reason, 'tool_use');
  assert.deepEqual(
    final.content.map((b) => (b.type === 'tool_use' ? { name: b.name, input: b.input, id: b.id } : b.type)),
    [{ name: 'Read', input: { file_path: '/a.txt' }, id: 'call_r' }],
  );
});

test('raw stream starts with message_start and a ping, every event named', async () => {
  h.upstream.script({ kind: 'text', tokens: ['ok'] });
  const res = await fetch(`${h.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k-anthropic', 'anthropic-beta': 'made-up-beta-2099' },
    body: JSON.stringify({ model: 'claude-x', max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'x' }] }),
  });
  assert.equal(res.status, 200);
  const events = (await res.text()).split('\n\n').filter(Boolean);
  assert.match(events[0], /^event: message_start\ndata: /);
  assert.match(events[1], /^event: ping\ndata: \{"type":"ping"\}$/);
  for (const e of events) assert.match(e, /^event: (\w+)\ndata: \{"type":"\1"/);
});

test('Claude Code helper calls are side turns: a one-token quota probe and a call without tools are answered, never recorded', async () => {
  const before = turns().length;
  h.upstream.script({ kind: 'text', tokens: ['a'] });
  const msg = await client.messages.create(
    { model: 'claude-haiku-4-5', max_tokens: 1, messages: [{ role: 'user', content: 'quota' }] },
    session('cc-probe'),
  );
  assert.equal(msg.content.length, 1);
  assert.equal(turns().length, before);
  assert.equal(h.upstream.received.at(-1)!.body.logprobs, undefined, 'side turns do not ask for token data');
  h.upstream.script({ kind: 'text', text: 'Listing files in the project' });
  await client.messages.create(
    { model: 'claude-haiku-4-5', max_tokens: 100, system: 'Generate a title.', messages: [{ role: 'user', content: 'list files' }] },
    session('cc-probe'),
  );
  assert.equal(turns().length, before);
});

test('bad input: a 400 in Anthropic shape naming the field, nothing recorded', async () => {
  const before = turns().length;
  const cases: Array<[unknown, RegExp]> = [
    [{ model: 'claude-x', max_tokens: 10, messages: [] }, /'messages'.*at least 1/],
    [{ model: 'claude-x', max_tokens: 0, messages: [{ role: 'user', content: 'x' }] }, /'max_tokens'/],
    [{ model: 'claude-x', messages: [{ role: 'user', content: 'x' }] }, /'max_tokens'/],
    [
      { model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'video', url: 'x' }] }] },
      /messages\[0\]\.content\[0\]\.type.*video/,
    ],
    [
      {
        model: 'claude-x',
        max_tokens: 5,
        messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'nope', content: 'x' }] }],
      },
      /messages\[0\]\.content\[0\]\.tool_use_id.*no tool_use/,
    ],
    [
      {
        model: 'claude-x',
        max_tokens: 5,
        messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA' } }] }],
      },
      /image blocks are not supported/,
    ],
    [{ model: 'claude-x', max_tokens: 5, messages: [{ role: 'robot', content: 'x' }] }, /messages\[0\]\.role/],
    [{ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'x' }], tool_choice: { type: 'maybe' } }, /tool_choice\.type/],
  ];
  for (const [body, re] of cases) {
    const res = await postJson(`${h.url}/v1/messages`, body, { 'x-api-key': 'k-anthropic' });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.type, 'error');
    assert.equal(res.body.error.type, 'invalid_request_error');
    assert.match(res.body.error.message, re);
  }
  const bad = await postJson(`${h.url}/v1/messages`, '{"model": ', { 'x-api-key': 'k-anthropic' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.type, 'invalid_request_error');
  assert.equal(turns().length, before);
});

test('the SDK sees typed errors: unknown model (404 listing names), wrong key (401)', async () => {
  await assert.rejects(
    client.messages.create({ model: 'gpt-4o', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
    (err: unknown) => {
      assert.ok(err instanceof Anthropic.NotFoundError);
      assert.match((err as Error).message, /'gpt-4o' is not served here.*'policy-upstream'.*'claude-\*'/);
      return true;
    },
  );
  const wrong = new Anthropic({ baseURL: h.url, apiKey: 'nope', maxRetries: 0 });
  await assert.rejects(
    wrong.messages.create({ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
    (err: unknown) => {
      assert.ok(err instanceof Anthropic.AuthenticationError);
      return true;
    },
  );
});

test('an upstream failure after the first byte is an `error` event; the SDK stream throws and nothing is recorded', async () => {
  const before = turns().length;
  h.upstream.script({ kind: 'error_mid_stream', afterTokens: 2 });
  const stream = client.messages.stream(
    { model: 'claude-x', max_tokens: 50, messages: [{ role: 'user', content: 'go' }] },
    session('cc-broken'),
  );
  await assert.rejects(stream.finalMessage());
  assert.equal(turns().length, before);
});

test('GET /v1/models answers both SDKs', async () => {
  const page = await client.models.list();
  const ids = page.data.map((m) => m.id);
  assert.ok(ids.includes('policy-upstream'));
  assert.equal(page.data[0].type, 'model');
});

test('count_tokens without the policy tokenizer says what to set, in Anthropic shape', async () => {
  const res = await postJson(
    `${h.url}/v1/messages/count_tokens`,
    { model: 'claude-x', messages: [{ role: 'user', content: 'x' }] },
    { 'x-api-key': 'k-anthropic' },
  );
  assert.equal(res.status, 404);
  assert.equal(res.body.type, 'error');
  assert.match(res.body.error.message, /rollout\.tokenizer/);
});
