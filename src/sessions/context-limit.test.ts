import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenClawError, toOpenAIError } from '../errors/index.ts';
import { loadHfTokenizer } from '../tokenize/index.ts';
import { qwen3TokenizerDir } from '../../test/support/qwen3-fixture.ts';
import { createContextGuard, promptTokenCounter } from './context-limit.ts';

const words = (messages: Array<{ content?: unknown }>) =>
  messages
    .map(
      (m) =>
        String(m.content ?? '')
          .split(/\s+/)
          .filter(Boolean).length,
    )
    .reduce((a, b) => a + b, 0);

test('a prompt within the context passes and reports its length; one token over is refused with both lengths', () => {
  const guard = createContextGuard(5, words);
  assert.equal(
    guard([
      { role: 'user', content: 'one two three' },
      { role: 'user', content: 'four five' },
    ]),
    5,
  );
  let caught: unknown;
  try {
    guard([{ role: 'user', content: 'one two three four five six' }]);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof OpenClawError);
  const { status, body } = toOpenAIError(caught);
  assert.equal(status, 400);
  assert.equal(body.error.type, 'invalid_request_error');
  assert.equal(body.error.code, 'context_length_exceeded');
  assert.equal(body.error.param, 'messages');
  assert.match(body.error.message, /maximum context length is 5 tokens, but the prompt has 6 tokens/);
});

test('a context length that is not a positive integer is a config error', () => {
  assert.throws(
    () => createContextGuard(0, words),
    (e: unknown) => e instanceof OpenClawError && e.kind === 'config',
  );
});

test('with the Qwen3 tokenizer the count is the templated prompt (tools included) in tokens', async () => {
  const tok = await loadHfTokenizer(qwen3TokenizerDir());
  const count = promptTokenCounter(tok);
  const messages = [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Hello there' },
  ];
  const tools = [{ type: 'function', function: { name: 'ls', description: 'List files', parameters: { type: 'object', properties: {} } } }];
  const plain = count(messages);
  assert.equal(plain, tok.encode(tok.renderChat(messages, { addGenerationPrompt: true })).length);
  assert.ok(
    tok.renderChat(messages, { addGenerationPrompt: true }).endsWith('<|im_start|>assistant\n'),
    'the generation prompt is counted',
  );
  const withTools = count(messages, tools);
  assert.ok(withTools > plain + 10, `tool definitions count (${withTools} vs ${plain})`);
  assert.equal(createContextGuard(withTools, count)(messages, tools), withTools);
  assert.throws(
    () => createContextGuard(withTools - 1, count)(messages, tools),
    new RegExp(`context length is ${withTools - 1} tokens, but the prompt has ${withTools} tokens`),
  );
});
