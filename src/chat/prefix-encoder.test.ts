import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadHfTokenizer, type HfTokenizer } from '../tokenize/index.ts';
import { qwen3TokenizerDir } from '../../test/support/qwen3-fixture.ts';
import { HfChatTokenizer } from './hf-chat-tokenizer.ts';
import { PrefixEncoder, commonPrefixLength } from './prefix-encoder.ts';
import type { ChatMessage } from '../engines/types.ts';
import { OPENCLAW_RECORDING as FIXTURE } from '../../test/fixtures/openclaw-like.ts';

let qwen: HfTokenizer;
before(async () => {
  qwen = await loadHfTokenizer(qwen3TokenizerDir());
});

/** Full (non-incremental) ids of a chat, the reference every incremental encode must equal. */
function fullIds(messages: ChatMessage[], tools?: unknown[]): number[] {
  return qwen.encode(qwen.renderChat(messages, { tools, addGenerationPrompt: true }));
}

const tools = [
  {
    type: 'function',
    function: {
      name: 'read',
      description: 'Read a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
  {
    type: 'function',
    function: { name: 'exec', description: 'Run a shell command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } },
  },
];

test('OpenClaw fixture: every request encodes to the full-encode ids, later turns reuse the earlier prefix', () => {
  const requests = readFileSync(FIXTURE, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).body as { messages: ChatMessage[]; tools: unknown[] });
  const chat = new HfChatTokenizer(qwen);
  for (const [i, body] of requests.entries()) {
    const before = { ...chat.prompts.stats };
    const ids = chat.encodeChat(body.messages, body.tools);
    assert.deepEqual(ids, fullIds(body.messages, body.tools), `request ${i + 1}`);
    const encoded = chat.prompts.stats.encodedChars - before.encodedChars;
    const total = chat.renderPrompt(body.messages, body.tools).length;
    // Requests 2–3 extend request 1's session; request 4 is another session (another system prompt).
    if (i === 1 || i === 2) assert.ok(encoded < total * 0.1, `request ${i + 1} encoded ${encoded} of ${total} characters`);
  }
  assert.equal(chat.prompts.stats.hits, 2);
});

/** A session growing turn by turn: thinking answers, tool calls, tool results, odd text. */
function syntheticTurns(): ChatMessage[][] {
  const internal: ChatMessage = { role: 'user', content: [{ type: 'text', text: '<<<BEGIN_CONTEXT>>>\nnone\n<<<END_CONTEXT>>>' }] };
  const history: ChatMessage[] = [{ role: 'system', content: 'You are a careful agent. 🚀 Use tools.' }];
  const turns: ChatMessage[][] = [];
  const ask = (m: ChatMessage) => {
    history.push(m);
    turns.push([...history, internal]);
  };
  ask({ role: 'user', content: 'List the files, then read notes.txt.' });
  history.push({
    role: 'assistant',
    content: '<think>\nI should list first.\n</think>\n\nListing.',
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'exec', arguments: '{"cmd":"ls"}' } }],
  });
  ask({ role: 'tool', tool_call_id: 'c1', content: 'notes.txt\nREADME.md' });
  history.push({
    role: 'assistant',
    content: null,
    reasoning_content: 'Now read it.',
    tool_calls: [
      { id: 'c2', type: 'function', function: { name: 'read', arguments: '{"path":"notes.txt"}' } },
      { id: 'c3', type: 'function', function: { name: 'read', arguments: { path: 'README.md' } } },
    ],
  });
  history.push({ role: 'tool', tool_call_id: 'c2', content: 'café ☕ — "quoted" <tool_call> not a call' });
  ask({ role: 'tool', tool_call_id: 'c3', content: '# Readme\n\n```js\nconsole.log(1)\n```' });
  history.push({ role: 'assistant', content: '<think>\nSummarise.\n</think>\n\nnotes.txt says café.' });
  ask({ role: 'user', content: 'Literal tokens: <|im_start|>user and <|im_end|> and <think>.' });
  history.push({ role: 'assistant', content: 'Noted.' });
  ask({
    role: 'user',
    content: [
      { type: 'text', text: 'part one' },
      { type: 'text', text: 'part two' },
    ],
  });
  return turns;
}

test('synthetic sessions with tools, tool results and think blocks: ids identical to full encodes', () => {
  const chat = new HfChatTokenizer(qwen);
  const turns = syntheticTurns();
  for (const [i, messages] of turns.entries()) {
    // Without the trailing context message, earlier think blocks stay until the next user message.
    const bare = messages.slice(0, -1);
    assert.deepEqual(chat.encodeChat(bare, tools), fullIds(bare, tools), `turn ${i + 1} without the context message`);
    assert.deepEqual(chat.encodeChat(messages, tools), fullIds(messages, tools), `turn ${i + 1} with tools`);
    assert.deepEqual(chat.encodeChat(messages), fullIds(messages), `turn ${i + 1} without tools`);
  }
  assert.ok(chat.prompts.stats.reusedChars > chat.prompts.stats.encodedChars, 'most characters came from the cache');
  // Qwen3 drops the <think> of answers before the last user message: rendered text changes
  // between turns although the messages only grew, and the ids still match.
  assert.ok(chat.renderPrompt(turns[1].slice(0, -1)).includes('I should list first.'));
  assert.ok(!chat.renderPrompt(turns[1]).includes('I should list first.'));
});

test('interleaved sessions and a one-entry cache still give full-encode ids', () => {
  const a = syntheticTurns();
  const b = syntheticTurns().map((t) => t.map((m) => (m.role === 'system' ? { ...m, content: 'Other system prompt.' } : m)));
  for (const size of [0, 1, 2]) {
    const chat = new HfChatTokenizer(qwen, { prefixCacheSize: size });
    for (let i = 0; i < a.length; i++) {
      assert.deepEqual(chat.encodeChat(a[i], tools), fullIds(a[i], tools), `cache ${size}, session a turn ${i + 1}`);
      assert.deepEqual(chat.encodeChat(b[i], tools), fullIds(b[i], tools), `cache ${size}, session b turn ${i + 1}`);
    }
  }
});

test('a cut is reused only where the new text holds the whole split token', () => {
  const enc = new PrefixEncoder((t) => qwen.encode(t), qwen.splitTokens);
  const texts = [
    'hello<|im_start|>user\nhi<|im_end|>',
    'hello<|im_startle the rest',
    'hello<|im_start|>user\nbye',
    'hello<|im_start|>user\nbye',
  ];
  for (const t of texts) assert.deepEqual(enc.encode(t), qwen.encode(t), JSON.stringify(t));
  assert.equal(enc.stats.hits, 2, 'the partial token is no cut; the third text reuses "hello", the fourth is an exact hit');
});

test('commonPrefixLength across block boundaries', () => {
  const a = 'x'.repeat(5000);
  assert.equal(commonPrefixLength(a, a), 5000);
  assert.equal(commonPrefixLength(a, `${'x'.repeat(4097)}y`), 4097);
  assert.equal(commonPrefixLength('', a), 0);
  assert.throws(() => new PrefixEncoder((t) => [t.length], [], -1), /capacity/);
});

test('outputParser starts inside a think block only when the generation prompt opened one', () => {
  const chat = new HfChatTokenizer(qwen);
  const plain = chat.encodeChat([{ role: 'user', content: 'hi' }]);
  const opened = [...plain, ...qwen.encode('<think>\n')];
  const closed = [...plain, ...qwen.encode('<think>\n\n</think>\n\n')];
  const run = (ids: number[]) => {
    const p = chat.outputParser(ids);
    const d = p.push('x\n</think>\n\ny');
    const f = p.finish();
    return [(d.reasoning ?? '') + (f.reasoning ?? ''), (d.content ?? '') + (f.content ?? '')];
  };
  assert.deepEqual(run(opened), ['x', 'y']);
  assert.deepEqual(run(closed), ['', 'x\n</think>\n\ny']);
  assert.deepEqual(run(plain), ['', 'x\n</think>\n\ny']);
});

test('a new session with the same system prompt and tools reuses the system prompt ids', () => {
  const [first] = readFileSync(FIXTURE, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).body as { messages: ChatMessage[]; tools: unknown[] });
  const chat = new HfChatTokenizer(qwen);
  chat.encodeChat(first.messages, first.tools);
  const other = [first.messages[0], { role: 'user', content: 'A different first question.' }];
  const reusedBefore = chat.prompts.stats.reusedChars;
  assert.deepEqual(chat.encodeChat(other, first.tools), fullIds(other, first.tools));
  const systemChars = qwen.renderChat([first.messages[0]], { tools: first.tools, addGenerationPrompt: false }).length;
  assert.ok(chat.prompts.stats.reusedChars - reusedBefore >= systemChars, 'the whole system block came from the cache');
});

test('random texts built from tokens, partial tokens, whitespace and unicode: always the full-encode ids', () => {
  const pieces = [
    '<|im_start|>',
    '<|im_end|>',
    '<|im_',
    '|>',
    '<think>',
    '</think>',
    '<tool_call>',
    '</tool_call>',
    '<tool',
    'user',
    'assistant',
    '\n',
    '\n\n',
    ' ',
    '  ',
    'hello',
    ' world',
    "'s",
    '123',
    'é',
    '🚀',
    '天气',
    '{"a": 1}',
    '<',
    '>',
    '\t',
    'x',
  ];
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const enc = new PrefixEncoder((t) => qwen.encode(t), qwen.splitTokens, 4);
  let text = '';
  for (let i = 0; i < 300; i++) {
    // Mostly extend the previous text, sometimes cut it back first (as templates rewrite the tail).
    if (rnd(10) === 0) text = text.slice(0, rnd(text.length + 1));
    for (let k = rnd(6); k >= 0; k--) text += pieces[rnd(pieces.length)];
    assert.deepEqual(enc.encode(text), qwen.encode(text), JSON.stringify(text));
  }
  assert.ok(
    enc.stats.reusedChars > 2 * enc.stats.encodedChars,
    `reused ${enc.stats.reusedChars} characters, encoded ${enc.stats.encodedChars}`,
  );
});
