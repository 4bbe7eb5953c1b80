import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer, trainBpe } from './tokenizer.ts';
import { applyChatTemplate } from '../../chat/index.ts';

const corpus = [
  'The quick brown fox jumps over the lazy dog.',
  'The quick answer is: the fox is quick, the dog is lazy.',
  'Hello there! How are you today? I am fine, thank you.',
  '1. First point\n2. Second point\n**bold** text here',
];

test('round trip of ASCII, Chinese, emoji and mixed text', () => {
  const tok = trainBpe(corpus, 300);
  for (const text of ['The quick brown fox.', '你好，世界！', 'emoji 🎉👍🏽 ok', 'tabs\tand\nnewlines  ', '', 'é̃ combining']) {
    assert.equal(tok.decode(tok.encode(text)), text);
  }
});

test('merges shorten frequent words to fewer tokens than bytes', () => {
  const tok = trainBpe(corpus, 300);
  const ids = tok.encode(' quick');
  assert.ok(ids.length < 6, `expected ' quick' to take fewer than 6 tokens, got ${ids.length}`);
  // The small corpus runs out of pairs seen twice before 300, so the vocabulary stops short.
  assert.ok(tok.vocabSize <= 300);
  assert.equal(tok.vocabSize, 256 + tok.merges.length + 3);
});

test('training is deterministic and survives a JSON round trip', () => {
  const a = trainBpe(corpus, 290);
  const b = trainBpe(corpus, 290);
  assert.deepEqual(a.toJSON(), b.toJSON());
  const c = Tokenizer.fromJSON(JSON.parse(JSON.stringify(a.toJSON())));
  const text = 'the lazy dog is quick 你好';
  assert.deepEqual(c.encode(text), a.encode(text));
});

test('special tokens are single ids only when allowed', () => {
  const tok = trainBpe(corpus, 280);
  const withSpecial = tok.encode('<|im_start|>user<|im_end|>', { allowSpecial: true });
  assert.equal(withSpecial[0], tok.special['<|im_start|>']);
  assert.equal(withSpecial[withSpecial.length - 1], tok.special['<|im_end|>']);
  assert.equal(tok.decode(withSpecial), '<|im_start|>user<|im_end|>');
  const plain = tok.encode('<|im_start|>');
  assert.ok(!plain.includes(tok.special['<|im_start|>']));
  assert.equal(tok.decode(plain), '<|im_start|>');
});

test('chat template renders roles, parts, tool calls and the generation prompt', () => {
  const tok = trainBpe(corpus, 280);
  const ids = applyChatTemplate(
    tok,
    [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }, { type: 'image_url' }, { type: 'text', text: 'there' }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"p":"."}' } }] },
      { role: 'tool', content: 'a.txt', tool_call_id: 'c1' },
    ],
    { addGenerationPrompt: true },
  );
  assert.equal(
    tok.decode(ids),
    '<|im_start|>system\nBe brief.<|im_end|>\n' +
      '<|im_start|>user\nHi\nthere<|im_end|>\n' +
      '<|im_start|>assistant\n<tool_call>\n{"name": "ls", "arguments": {"p":"."}}\n</tool_call><|im_end|>\n' +
      '<|im_start|>tool\na.txt<|im_end|>\n' +
      '<|im_start|>assistant\n',
  );
  assert.equal(ids.filter((id) => id === tok.special['<|im_start|>']).length, 5);
});
