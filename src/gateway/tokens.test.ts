import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LazyInts } from '../raw-json/lazy-ints.ts';
import { AnswerAccumulator } from './accumulate.ts';
import { TokenResolver } from './tokens.ts';

function answerWithPromptIds(promptIds: LazyInts): AnswerAccumulator {
  const acc = new AnswerAccumulator();
  acc.addChunk({
    prompt_token_ids: promptIds,
    choices: [{ index: 0, delta: { content: 'hi' }, logprobs: { content: [{ token: 'hi', logprob: -0.1 }] }, token_ids: [5] }],
  });
  return acc;
}

test('engine prompt ids that came as text are parsed when the turn is resolved, and their text kept', () => {
  const t = new TokenResolver().resolve([], undefined, answerWithPromptIds(new LazyInts('[1,2,3]')), { role: 'assistant', content: 'hi' });
  assert.deepEqual(t.promptIds, [1, 2, 3]);
  assert.equal(t.promptIdsJson, '[1,2,3]');
  assert.deepEqual(t.warnings, []);
});

test('malformed engine prompt ids leave the turn without prompt ids, with a warning that says why', () => {
  const resolver = new TokenResolver();
  const t = resolver.resolve([], undefined, answerWithPromptIds(new LazyInts('[1,"x"]')), { role: 'assistant', content: 'hi' });
  assert.equal(t.promptIds, undefined);
  assert.equal(t.promptIdsJson, undefined);
  assert.match(t.warnings.join(), /malformed prompt_token_ids \(element 1 is "x", not an integer\): this turn cannot be trained/);
  assert.equal(resolver.counters.warnings, 1);
});
