import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonText, stringifyWithShared } from './json-text.ts';

test('stringifyWithShared gives the same value as JSON.stringify, shared keys last', () => {
  const messages = [{ role: 'system', content: 'x'.repeat(100) }, { role: 'user', content: 'hi "there"\n' }];
  const tools = [{ type: 'function', function: { name: 'f' } }];
  const body = { model: 'm', messages, stream: true, tools, skipped: undefined, n: null };
  const text = stringifyWithShared(body, ['messages', 'tools']);
  assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(body)));
  assert.deepEqual(Object.keys(JSON.parse(text)), ['model', 'stream', 'n', 'messages', 'tools']);
  // No shared value present: plain JSON.stringify, key order kept.
  assert.equal(stringifyWithShared({ a: 1, messages: 'text' }, ['messages']), '{"a":1,"messages":"text"}');
  // Only shared keys.
  assert.equal(stringifyWithShared({ messages: [1, 2] }, ['messages']), '{"messages":[1,2]}');
});

test('jsonText serialises a value once and hands the same text to later callers', () => {
  const messages = [{ role: 'user', content: 'hello' }];
  const first = jsonText(messages);
  assert.equal(first, JSON.stringify(messages));
  // Kept by identity, not recomputed: a later serialisation (the record line) splices that text
  // (which is why only values never changed afterwards may be shared).
  messages.push({ role: 'assistant', content: 'changed later' });
  assert.equal(jsonText(messages), first);
  assert.equal(stringifyWithShared({ messages }, ['messages']), `{"messages":${first}}`);
});

test('release lets the kept text go: the next serialisation computes it afresh', () => {
  const messages = [{ role: 'user', content: 'hello' }];
  const first = jsonText(messages);
  assert.equal(stringifyWithShared({ messages }, ['messages'], true), `{"messages":${first}}`);
  messages.push({ role: 'assistant', content: 'next' });
  assert.equal(jsonText(messages), JSON.stringify(messages));
});
