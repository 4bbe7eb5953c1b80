// POST /v1/responses through the official `openai` SDK, in front of a scripted OpenAI-compatible
// upstream: output items, streamed events with sequence numbers, function calls and their outputs
// as next states, previous_response_id, Codex's session and request-kind headers, errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import OpenAI from 'openai';
import { startHarness, postJson, type Harness } from '../support/harness.ts';
import { fakeTokenId } from '../support/scripted-upstream.ts';
import { readRecords } from '../../src/sessions/index.ts';

let h: Harness;
let client: OpenAI;
before(async () => {
  h = await startHarness({ 'server.model_aliases': ['gpt-5-codex'] });
  client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
after(async () => {
  await h.close();
});

const turns = () => readRecords(join(h.outDir, 'records', 'turns.jsonl')).turns;
const codex = (id: string, kind = 'turn') => ({
  headers: { 'session-id': id, 'x-codex-turn-metadata': JSON.stringify({ turn_id: 't1', request_kind: kind }) },
});
const shell = {
  type: 'function' as const,
  name: 'shell',
  description: 'Run a command',
  parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } },
  strict: false,
};

test('responses.create: a message output item, output_text, usage; instructions become the system message', async () => {
  h.upstream.script({ kind: 'text', tokens: ['Four', '.'] });
  const r = await client.responses.create({ model: 'gpt-5-codex', instructions: 'Be brief.', input: '2+2?', store: false }, codex('cx-1'));
  assert.equal(r.object, 'response');
  assert.equal(r.status, 'completed');
  assert.equal(r.output_text, 'Four.');
  assert.equal(r.output[0].type, 'message');
  assert.equal(r.usage?.input_tokens, 10);
  assert.equal(r.usage?.output_tokens, 2);
  assert.deepEqual(h.upstream.received.at(-1)!.body.messages, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: '2+2?' },
  ]);
  const t = turns().find((x) => x.session_id === 'cx-1')!;
  assert.deepEqual(t.response_ids, ['Four', '.'].map(fakeTokenId));
});

test('function call, then its output as the next state; Codex-only tools and items are left out', async () => {
  h.upstream.script({ kind: 'tool_call', name: 'shell', arguments: '{"command":["ls"]}', id: 'call_ls' });
  const tools = [shell, { type: 'web_search' } as unknown as OpenAI.Responses.Tool];
  const input: OpenAI.Responses.ResponseInput = [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'sandbox: none' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] },
  ];
  const first = await client.responses.create({ model: 'gpt-5-codex', input, tools, stream: false }, codex('cx-tools'));
  const call = first.output.find((o) => o.type === 'function_call')!;
  assert.equal(call.type, 'function_call');
  assert.equal(call.name, 'shell');
  assert.equal(call.call_id, 'call_ls');
  assert.equal(call.arguments, '{"command":["ls"]}');
  assert.deepEqual(
    (h.upstream.received.at(-1)!.body.tools as any[]).map((t) => t.function.name),
    ['shell'],
  );
  h.upstream.script({ kind: 'text', text: 'Empty folder.' });
  const second = await client.responses.create(
    {
      model: 'gpt-5-codex',
      tools,
      input: [
        ...input,
        { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: 'function_call_output', call_id: call.call_id, output: 'total 0' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } } as any,
      ],
    },
    codex('cx-tools'),
  );
  assert.equal(second.output_text, 'Empty folder.');
  const sent = h.upstream.received.at(-1)!.body.messages as any[];
  assert.deepEqual(
    sent.map((m) => m.role),
    ['developer', 'user', 'assistant', 'tool'],
  );
  const t1 = turns().find((x) => x.session_id === 'cx-tools' && x.turn_id === 1)!;
  assert.deepEqual(t1.next_state, { role: 'tool', content: 'total 0' });
  const view = await (await fetch(`${h.url}/sessions/cx-tools`)).json();
  assert.equal(view.named_by, 'session-id');
});

test('responses.stream: events in order with sequence numbers, deltas, final response', async () => {
  h.upstream.script({ kind: 'text', tokens: ['Hel', 'lo'] });
  const stream = client.responses.stream({ model: 'gpt-5-codex', input: 'hi' }, codex('cx-stream'));
  const events: Array<{ type: string; sequence_number: number }> = [];
  for await (const e of stream) events.push(e);
  const final = await stream.finalResponse();
  assert.equal(final.output_text, 'Hello');
  assert.deepEqual(
    events.map((e) => e.type),
    [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ],
  );
  assert.deepEqual(
    events.map((e) => e.sequence_number),
    events.map((_, i) => i),
  );
});

test('streamed function call: arguments deltas and the done item', async () => {
  h.upstream.script({ kind: 'tool_call', name: 'shell', arguments: '{"command":["pwd"]}', id: 'call_pwd' });
  const stream = client.responses.stream({ model: 'gpt-5-codex', input: 'where am I', tools: [shell] }, codex('cx-stream-tool'));
  const types: string[] = [];
  for await (const e of stream) types.push(e.type);
  const final = await stream.finalResponse();
  const call = final.output.find((o) => o.type === 'function_call');
  assert.equal(call?.type === 'function_call' ? call.arguments : '', '{"command":["pwd"]}');
  assert.ok(types.includes('response.function_call_arguments.delta'));
  assert.ok(types.includes('response.function_call_arguments.done'));
});

test('previous_response_id brings back the conversation; an unknown id is a clear 400', async () => {
  h.upstream.script({ kind: 'text', text: 'Paris.' });
  const first = await client.responses.create({ model: 'gpt-5-codex', input: 'Capital of France?' }, codex('cx-prev'));
  h.upstream.script({ kind: 'text', text: 'About 2 million.' });
  await client.responses.create({ model: 'gpt-5-codex', previous_response_id: first.id, input: 'Population?' }, codex('cx-prev'));
  assert.deepEqual(h.upstream.received.at(-1)!.body.messages, [
    { role: 'user', content: 'Capital of France?' },
    { role: 'assistant', content: 'Paris.' },
    { role: 'user', content: 'Population?' },
  ]);
  const t1 = turns().find((x) => x.session_id === 'cx-prev' && x.turn_id === 1)!;
  assert.deepEqual(t1.next_state, { role: 'user', content: 'Population?' });
  await assert.rejects(client.responses.create({ model: 'gpt-5-codex', previous_response_id: 'resp_gone', input: 'x' }), (err: unknown) => {
    assert.ok(err instanceof OpenAI.BadRequestError);
    assert.equal((err as { param?: string }).param, 'previous_response_id');
    assert.match((err as Error).message, /resp_gone.*not found/);
    return true;
  });
});

test("Codex's non-turn request kinds (compaction) are side turns", async () => {
  const before = turns().length;
  h.upstream.script({ kind: 'text', text: 'summary' });
  await client.responses.create({ model: 'gpt-5-codex', input: 'summarise' }, codex('cx-side', 'compact'));
  assert.equal(turns().length, before);
});

test('bad input: 400s in OpenAI shape naming the field; nothing recorded', async () => {
  const before = turns().length;
  const cases: Array<[unknown, string]> = [
    [{ model: 'gpt-5-codex' }, 'input'],
    [{ model: 'gpt-5-codex', input: [] }, 'input'],
    [{ model: 'gpt-5-codex', input: [{ type: 'function_call_output', call_id: 'orphan', output: 'x' }] }, 'input[0].call_id'],
    [{ model: 'gpt-5-codex', input: [{ type: 'mystery' }] }, 'input[0].type'],
    [{ model: 'gpt-5-codex', input: 'x', max_output_tokens: -3 }, 'max_output_tokens'],
    [{ model: 'gpt-5-codex', input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'x' }] }] }, 'input[0].content[0]'],
    [{ input: 'x' }, 'model'],
  ];
  for (const [body, param] of cases) {
    const res = await postJson(`${h.url}/v1/responses`, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.param, param, JSON.stringify(res.body));
    assert.equal(res.body.error.type, 'invalid_request_error');
  }
  assert.equal(turns().length, before);
});

test('an upstream failure after the first byte: error + response.failed events, nothing recorded', async () => {
  const before = turns().length;
  h.upstream.script({ kind: 'error_mid_stream', afterTokens: 1 });
  const res = await fetch(`${h.url}/v1/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'session-id': 'cx-broken' },
    body: JSON.stringify({ model: 'gpt-5-codex', input: 'go', stream: true }),
  });
  const text = await res.text();
  assert.match(text, /event: error\ndata: \{"type":"error"/);
  assert.match(text, /event: response\.failed\n/);
  assert.equal(turns().length, before);
});
