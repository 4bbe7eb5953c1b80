import { test } from 'node:test';
import assert from 'node:assert/strict';
import { garbledReason, loopShare } from './garbled.ts';

const FINE = [
  'To water a cactus, soak the soil completely, then wait until it is dry all the way down before watering again. In winter, once a month is plenty.',
  'Recursion is when a function calls itself on a smaller piece of the problem until it reaches a case it can answer directly.',
  '- eggs\n- milk\n- flour\n- sugar\n- butter',
  'Sure! Here you go:\n\n```python\nfor i in range(3):\n    print(i)\n```',
  'Ja, gerne. Das Wetter in Berlin ist heute sonnig, bei 21 Grad.',
  '你好！今天天气很好，我们去公园散步吧。',
  'ok',
  'No, no, no — that is not what I meant. Let me try again: the meeting is on Tuesday.',
];

test('ordinary answers (prose, lists, code, other scripts, short replies) are not garbled', () => {
  for (const text of FINE) assert.equal(garbledReason(text), null, text);
  assert.equal(garbledReason(''), null, 'empty is counted as empty, not garbled');
});

test('a phrase looped over most of the answer is garbled; one repeated at the end of a long answer is not', () => {
  assert.equal(garbledReason(`The answer is ${'I am sorry, I cannot help with that. '.repeat(8)}`), 'repetition_loop');
  assert.equal(garbledReason('the the the the the the the the the the'), 'repetition_loop');
  assert.equal(garbledReason('hahahahahahahahahahahahahahahahahahaha'), 'repetition_loop');
  assert.equal(garbledReason('好的好的好的好的好的好的好的好的好的好的好的好的好的'), 'repetition_loop');
  const mostlyFine = `${FINE[0]} ${FINE[1]} Thanks thanks thanks.`;
  assert.equal(garbledReason(mostlyFine), null);
});

test('replacement characters and control characters make an answer garbled', () => {
  assert.equal(garbledReason('Hello \uFFFD\uFFFD world \uFFFD'), 'replacement_chars');
  assert.equal(garbledReason('caf\uFFFD'), 'replacement_chars', 'one in four characters');
  assert.equal(garbledReason(`${FINE[0]} ${FINE[1]} \uFFFD`), null, 'one stray U+FFFD in a long answer');
  assert.equal(garbledReason('\u0001\u0002\u0003abc\u0004\u0005'), 'non_printable');
  assert.equal(garbledReason('line one\nline two\ttabbed\r\n'), null, 'newlines and tabs are layout');
});

test('loopShare measures the longest back-to-back repeat', () => {
  assert.equal(loopShare([1, 2, 3, 4], 2), 0);
  assert.equal(loopShare([1, 2, 1, 2, 1, 2], 2), 1);
  assert.equal(loopShare([9, 1, 2, 1, 2, 8], 2), 4 / 6);
});
