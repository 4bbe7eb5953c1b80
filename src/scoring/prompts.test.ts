import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildHintMessages, buildPrmMessages } from './prompts.ts';
import type { JudgedTurnInput } from './types.ts';

const turn: JudgedTurnInput = {
  promptMessages: [
    { role: 'system', content: 'SYSTEM PROMPT TEXT' },
    { role: 'user', content: 'old question 1' },
    { role: 'assistant', content: 'old answer 1' },
    { role: 'user', content: 'old question 2' },
    { role: 'assistant', content: 'old answer 2' },
    { role: 'user', content: 'Delete the temp files.' },
    {
      role: 'user',
      content: [{ type: 'text', text: '<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>> secret runtime <<<END_OPENCLAW_INTERNAL_CONTEXT>>>' }],
    },
  ],
  responseText: 'Deleting them now.',
  responseToolCalls: [{ id: 'c1', type: 'function', function: { name: 'exec', arguments: '{"cmd":"rm -rf /tmp/x"}' } }],
  nextState: { role: 'tool', content: 'rm: cannot remove: Permission denied' },
};

test('PRM prompt shows context excerpt, response text + tool calls, and the next state with its role', () => {
  const messages = buildPrmMessages(turn);
  assert.deepEqual(
    messages.map((m) => m.role),
    ['system', 'user'],
  );
  const body = String(messages[1].content);
  assert.match(body, /## Next state \(role: tool\)\nrm: cannot remove: Permission denied/);
  assert.match(body, /Deleting them now\./);
  assert.match(body, /- exec\(\{"cmd":"rm -rf \/tmp\/x"\}\)/);
  assert.match(body, /\[user\] Delete the temp files\./);
  assert.doesNotMatch(body, /SYSTEM PROMPT TEXT/, 'the client system prompt is not repeated');
  assert.doesNotMatch(body, /secret runtime/, 'internal context blocks are dropped');
  assert.doesNotMatch(body, /old question 1/, 'only the last 4 context messages are shown');
  assert.match(body, /\\boxed\{1\}, \\boxed\{0\} or \\boxed\{-1\}\.$/);
  assert.match(String(messages[0].content), /\\boxed\{-1\}/);
});

test('hint prompt asks for a +1/-1 decision and a [HINT_START]…[HINT_END] hint', () => {
  const messages = buildHintMessages({ ...turn, nextState: { role: 'user', content: 'You should ask before deleting.' } });
  const system = String(messages[0].content);
  assert.match(system, /\[HINT_START\] and \[HINT_END\]/);
  assert.match(system, /one to three sentences/);
  assert.match(String(messages[1].content), /## Next state \(role: user\)\nYou should ask before deleting\./);
});

test('long texts are cut in the middle, with a marker', () => {
  const long = 'a'.repeat(5000) + 'END';
  const body = String(buildPrmMessages({ ...turn, responseText: long }, { mainChars: 200 })[1].content);
  assert.match(body, /characters omitted/);
  assert.match(body, /aEND/);
  assert.ok(body.length < 2000);
});
