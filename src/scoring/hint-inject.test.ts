import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage } from '../engines/types.ts';
import { injectHint } from './hint-inject.ts';

const SUFFIX = "\n\n[user's hint / instruction]\nUse metric units.";

test('appends the hint block to the last user message with string content', () => {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'How far is it?' },
    { role: 'assistant', content: 'About 3 miles.' },
    { role: 'user', content: 'And to the lake?' },
  ];
  const out = injectHint(messages, 'Use metric units.');
  assert.equal(out[3].content, 'And to the lake?' + SUFFIX);
  assert.deepEqual(out.slice(0, 3), messages.slice(0, 3));
});

test('skips trailing tool and assistant messages to find the last user message', () => {
  const messages: ChatMessage[] = [
    { role: 'user', content: 'List files' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
  ];
  const out = injectHint(messages, 'Use metric units.');
  assert.equal(out[0].content, 'List files' + SUFFIX);
  assert.equal(out[2].content, 'a.txt');
});

test('content lists: appends to the last text part, or adds a text part', () => {
  const withText: ChatMessage[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look:' },
        { type: 'image_url', image_url: { url: 'x' } },
        { type: 'text', text: 'What is it?' },
      ],
    },
  ];
  const out = injectHint(withText, 'Use metric units.');
  assert.deepEqual(out[0].content, [
    { type: 'text', text: 'Look:' },
    { type: 'image_url', image_url: { url: 'x' } },
    { type: 'text', text: 'What is it?' + SUFFIX },
  ]);

  const imageOnly: ChatMessage[] = [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }];
  assert.deepEqual(injectHint(imageOnly, 'Use metric units.')[0].content, [
    { type: 'image_url', image_url: { url: 'x' } },
    { type: 'text', text: SUFFIX },
  ]);
});

test('no user message: the last message gets the hint', () => {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'assistant', content: 'Hello.' },
  ];
  const out = injectHint(messages, '  Use metric units.  ');
  assert.equal(out[0].content, 'Be brief.');
  assert.equal(out[1].content, 'Hello.' + SUFFIX);
  assert.deepEqual(injectHint([], 'Use metric units.'), [{ role: 'user', content: "[user's hint / instruction]\nUse metric units." }]);
});

test('the original messages are untouched (deep copy)', () => {
  const messages: ChatMessage[] = [
    { role: 'user', content: 'One' },
    { role: 'user', content: [{ type: 'text', text: 'Two' }], extra: { nested: [1] } },
  ];
  const before = structuredClone(messages);
  const out = injectHint(messages, 'Use metric units.');
  assert.deepEqual(messages, before);
  assert.notEqual(out[1].content, messages[1].content);
  assert.notEqual(out[1].extra, messages[1].extra);
});
