// Request validation at the gateway's edge, over real HTTP: every malformed chat request gets an
// OpenAI-shaped 400 (413 when too large) naming the offending field, and never reaches the
// upstream; fields the gateway does not know reach the upstream untouched.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, postJson, type Harness } from '../support/harness.ts';
import { assertNotRecorded, assertOpenAIError, chatStream } from './expect.ts';

// 0.01 MB = 10 485 bytes: small enough to exceed cheaply, large enough for every other request.
let h: Harness;
before(async () => {
  h = await startHarness({ 'server.body_limit_mb': 0.01 });
});
after(async () => {
  await h.close();
});

const user = (content: string) => ({ role: 'user', content });

/** POSTs a raw body and asserts a 400 naming `param`, with nothing sent upstream. */
async function rejects(body: unknown, param: string | null, mentions: RegExp[], code?: string): Promise<void> {
  const sentBefore = h.upstream.received.length;
  const res = await postJson(`${h.url}/v1/chat/completions`, body);
  assert.equal(res.status, 400, `status for ${JSON.stringify(body).slice(0, 80)}`);
  assertOpenAIError(res.body, { type: 'invalid_request_error', param, mentions, ...(code !== undefined ? { code } : {}) });
  assert.equal(h.upstream.received.length, sentBefore, 'an invalid request never reaches the upstream');
}

test('invalid JSON', async () => {
  await rejects('{"messages": [', null, [/JSON/], 'invalid_json');
  await rejects('', null, [/JSON/], 'invalid_json');
  await rejects("{'messages': []}", null, [/JSON/], 'invalid_json');
});

test('a body that is not a JSON object', async () => {
  for (const raw of ['[1,2]', '"hello"', '42', 'null']) await rejects(raw, null, [/JSON object/], 'invalid_body');
});

test('messages missing, empty, or not a list', async () => {
  await rejects({ model: 'm' }, 'messages', [/'messages'/], 'missing_required_parameter');
  await rejects({ messages: [] }, 'messages', [/at least one message/]);
  await rejects({ messages: 'hello' }, 'messages', [/'messages'/, /array/]);
  await rejects({ messages: { role: 'user', content: 'hi' } }, 'messages', [/'messages'/, /array/]);
  await rejects({ messages: null }, 'messages', [/'messages'/]);
});

test('a message that is not an object, or has a bad or missing role', async () => {
  await rejects({ messages: ['hello'] }, 'messages[0]', [/'messages\[0\]'/, /object/]);
  await rejects({ messages: [user('hi'), { role: 'robot', content: 'beep' }] }, 'messages[1].role', [
    /'messages\[1\]\.role'/,
    /'robot'/,
    /'user'/,
    /'assistant'/,
  ]);
  await rejects({ messages: [{ content: 'no role' }] }, 'messages[0].role', [/Required/]);
});

test('bad content types name the message and say what is allowed', async () => {
  await rejects({ messages: [{ role: 'user', content: 42 }] }, 'messages[0].content', [
    /'messages\[0\]\.content'/,
    /string/,
    /content parts/,
  ]);
  await rejects({ messages: [user('a'), { role: 'user', content: { text: 'x' } }] }, 'messages[1].content', [/'messages\[1\]\.content'/]);
  await rejects({ messages: [{ role: 'user', content: [{ text: 'part without type' }] }] }, 'messages[0].content', [
    /'messages\[0\]\.content'/,
    /type/,
  ]);
  await rejects({ messages: [{ role: 'tool', content: 'result', tool_call_id: 7 }] }, 'messages[0].tool_call_id', [/string/]);
  await rejects({ messages: [{ role: 'assistant', content: null, tool_calls: 'read_file' }] }, 'messages[0].tool_calls', [/array/]);
});

test('max_tokens negative or not a number; temperature out of range; other typed fields', async () => {
  await rejects({ messages: [user('x')], max_tokens: -5 }, 'max_tokens', [/'max_tokens'/, /greater than 0/]);
  await rejects({ messages: [user('x')], max_tokens: 0 }, 'max_tokens', [/greater than 0/]);
  await rejects({ messages: [user('x')], max_tokens: '100' }, 'max_tokens', [/number/]);
  await rejects({ messages: [user('x')], max_tokens: 12.5 }, 'max_tokens', [/integer/]);
  await rejects({ messages: [user('x')], max_completion_tokens: -1 }, 'max_completion_tokens', [/greater than 0/]);
  await rejects({ messages: [user('x')], temperature: 2.5 }, 'temperature', [/'temperature'/, /less than or equal to 2/]);
  await rejects({ messages: [user('x')], temperature: -0.1 }, 'temperature', [/greater than or equal to 0/]);
  await rejects({ messages: [user('x')], temperature: 'hot' }, 'temperature', [/number/]);
  await rejects({ messages: [user('x')], top_p: 0 }, 'top_p', [/greater than 0/]);
  await rejects({ messages: [user('x')], stream: 'yes' }, 'stream', [/boolean/]);
  await rejects({ messages: [user('x')], tools: { type: 'function' } }, 'tools', [/array/]);
  await rejects({ messages: [user('x')], n: 0 }, 'n', [/greater than 0/]);
});

test('an invalid request with a session id leaves no session behind', async () => {
  await rejects({ messages: [{ role: 'robot', content: 'x' }], session_id: 'invalid-1' }, 'messages[0].role', []);
  await assertNotRecorded(h, 'invalid-1');
});

test('a body over server.body_limit_mb is a 413 in OpenAI shape', async () => {
  const sentBefore = h.upstream.received.length;
  const res = await postJson(`${h.url}/v1/chat/completions`, { messages: [user('x'.repeat(20_000))] });
  assert.equal(res.status, 413);
  assertOpenAIError(res.body, {
    type: 'invalid_request_error',
    code: 'request_too_large',
    mentions: [/10486 bytes/, /server\.body_limit_mb/],
  });
  assert.equal(h.upstream.received.length, sentBefore);
});

test('a body sent with another content type is a 400 that asks for application/json', async () => {
  for (const type of ['text/plain', 'application/xml']) {
    const res = await fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': type }, body: 'hello' });
    assert.equal(res.status, 400, type);
    assertOpenAIError(await res.json(), { type: 'invalid_request_error', param: null, mentions: [/Content-Type.*application\/json/] });
  }
});

test('unknown fields, at the top and inside messages, reach the upstream untouched (streaming too)', async () => {
  const messages = [
    { role: 'system', content: 'Be brief.', cache_control: { type: 'ephemeral' } },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    },
    { role: 'assistant', content: 'Hello.', reasoning_content: 'greet back' },
    user('again'),
  ];
  const extras = {
    top_k: 20,
    min_p: 0.05,
    repetition_penalty: 1.1,
    seed: 7,
    stop: ['</s>'],
    chat_template_kwargs: { enable_thinking: false },
    response_format: { type: 'json_object' },
    prompt_logprobs: 1,
    skip_special_tokens: false,
    max_tokens: null,
    metadata: { nested: [1, { deep: true }] },
  };
  h.upstream.script({ kind: 'text', text: 'ok' });
  const res = await chatStream(h, { messages, ...extras, session_id: 'passthrough-1', turn_type: 'main', session_done: false });
  assert.equal(res.status, 200);
  assert.equal(res.events.at(-1), '[DONE]');
  const sent = h.upstream.received.at(-1)!.body;
  assert.deepEqual(sent.messages, messages);
  for (const [k, v] of Object.entries(extras)) assert.deepEqual(sent[k], v, `field ${k}`);
  for (const k of ['session_id', 'turn_type', 'session_done']) assert.equal(k in sent, false, `${k} is ours and removed`);
  assert.equal(sent.stream, true);
});
