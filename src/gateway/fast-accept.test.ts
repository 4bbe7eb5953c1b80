// The fast checks may only vouch for what the zod schemas accept: over valid bodies and every
// single-field corruption of them, fast-accepted ⇒ schema-accepted. They must also vouch for the
// ordinary requests (OpenClaw's included), or the fast path is never taken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateOpenClawSequence } from '../../test/fixtures/openclaw-like.ts';
import { acceptsChatBody, acceptsMessage } from './fast-accept.ts';
import { ChatBodySchema, MessageSchema } from './request.ts';

const VALUES: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  1,
  -1,
  2,
  2.5,
  0.5,
  21,
  20,
  1e9,
  NaN,
  Infinity,
  '',
  'x',
  '100',
  'main',
  [],
  [1],
  [{}],
  [{ type: 'text', text: 'hi' }],
  [{ text: 'no type' }],
  [null],
  {},
  { include_usage: true },
  { include_usage: 'yes' },
  { type: 'function' },
];

const BODY_FIELDS = [
  'model',
  'messages',
  'stream',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'n',
  'tools',
  'logprobs',
  'top_logprobs',
  'stream_options',
  'session_id',
  'turn_type',
  'session_done',
  'unknown_field',
];
const MESSAGE_FIELDS = ['role', 'content', 'tool_calls', 'tool_call_id', 'name', 'extra'];

const validBodies: Record<string, unknown>[] = [
  { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
  {
    model: 'm',
    stream: true,
    max_tokens: 64,
    temperature: 0.7,
    top_p: 1,
    n: 1,
    logprobs: false,
    top_logprobs: 0,
    stream_options: { include_usage: true },
    session_id: 's',
    turn_type: 'main',
    session_done: 'false',
    tools: [{ type: 'function', function: { name: 'read', parameters: {} } }],
    messages: [
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'image_url', image_url: { url: 'x' } },
        ],
      },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'read', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c', content: 'ok', name: 'read' },
    ],
  },
  ...generateOpenClawSequence({ seed: 3 }).map((r) => r.body as Record<string, unknown>),
];

function agrees(kind: string, fast: boolean, schemaOk: boolean, value: unknown): void {
  if (fast) assert.ok(schemaOk, `${kind}: the fast check accepted what the schema rejects: ${JSON.stringify(value)}`);
}

test('the fast checks accept the ordinary requests, OpenClaw-shaped ones included', () => {
  for (const body of validBodies) {
    assert.ok(acceptsChatBody(body), JSON.stringify(body).slice(0, 120));
    for (const m of body.messages as unknown[]) assert.ok(acceptsMessage(m), JSON.stringify(m).slice(0, 120));
  }
});

test('a body or message the fast checks accept is one the schemas accept (every one-field change)', () => {
  let fastAccepted = 0;
  let schemaRejected = 0;
  for (const base of validBodies) {
    for (const field of BODY_FIELDS) {
      for (const v of VALUES) {
        const body = { ...base, [field]: v };
        const ok = ChatBodySchema.safeParse(body).success;
        const fast = acceptsChatBody(body);
        agrees('body', fast, ok, body);
        fastAccepted += fast ? 1 : 0;
        schemaRejected += ok ? 0 : 1;
      }
    }
    for (const m of base.messages as Record<string, unknown>[]) {
      for (const field of MESSAGE_FIELDS) {
        for (const v of [...VALUES, 'system', 'developer', 'tool', 'robot']) {
          const msg = { ...m, [field]: v };
          agrees('message', acceptsMessage(msg), MessageSchema.safeParse(msg).success, msg);
        }
      }
    }
  }
  // Both sides are exercised: the corpus is not all-valid or all-invalid.
  assert.ok(fastAccepted > 100 && schemaRejected > 100, `${fastAccepted} fast-accepted, ${schemaRejected} rejected`);
  for (const notObject of [null, 'x', 1, [], [{ role: 'user' }]]) assert.equal(acceptsMessage(notObject), false);
});
