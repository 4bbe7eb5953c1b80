import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { qwen3TokenizerDir } from '../../../test/support/qwen3-fixture.ts';
import { cutScripted, matchScript, parseScript } from './script.ts';
import { checkCodecFits, hfVocabSize } from './vocab.ts';

test('script rules: first match wins, both file shapes, bad rules named', () => {
  const rules = parseScript([
    { match: '<tool_response>', completion: 'done' },
    { match: 'list (the )?files', flags: 'i', completion: '<tool_call>{}</tool_call>' },
  ]);
  assert.equal(matchScript(rules, 'user: LIST FILES')?.completion, '<tool_call>{}</tool_call>');
  assert.equal(matchScript(rules, 'list files <tool_response>x</tool_response>')?.completion, 'done');
  assert.equal(matchScript(rules, 'hello'), null);
  assert.equal(parseScript({ rules: [{ match: 'a', completion: 'b' }] }).length, 1);
  assert.throws(() => parseScript([{ match: '(', completion: 'x' }], 'f.json'), /f\.json: rule 0 has an invalid regular expression/);
  assert.throws(() => parseScript([{ match: 'a' }]), /0\.completion/);
  assert.throws(() => parseScript([{ match: 'a', completion: 'b', extra: 1 }]), /Unrecognized key/);
});

test('a scripted completion is cut as a sampled one: stop id kept, stop string, max_tokens', () => {
  const decode = (ids: readonly number[]) => ids.map((i) => String.fromCharCode(96 + i)).join('');
  const base = { maxTokens: 10, stopTokens: [], stopStrings: [], decode };
  assert.deepEqual(cutScripted([1, 2, 3], base), { tokens: [1, 2, 3], finishReason: 'stop' });
  assert.deepEqual(cutScripted([1, 9, 3], { ...base, stopTokens: [9] }), { tokens: [1, 9], finishReason: 'stop' });
  assert.deepEqual(cutScripted([1, 2, 3, 4], { ...base, stopStrings: ['bc'] }), { tokens: [1, 2, 3], finishReason: 'stop' });
  assert.deepEqual(cutScripted([1, 2, 3, 4], { ...base, maxTokens: 2 }), { tokens: [1, 2], finishReason: 'length' });
});

test("Qwen3's tokenizer.json defines 151,669 ids; a model with fewer is refused with the size to build", () => {
  const json = JSON.parse(readFileSync(join(qwen3TokenizerDir(), 'tokenizer.json'), 'utf8'));
  assert.equal(hfVocabSize(json), 151_669);
  const codec = { encode: () => [], decode: () => '', vocabSize: 151_669, source: 'the tokenizer in q' };
  assert.doesNotThrow(() => checkCodecFits(codec, 151_936, 'ckpt'));
  assert.throws(
    () => checkCodecFits(codec, 300, 'ckpt'),
    /151669 ids but checkpoint ckpt has a vocabulary of 300: build the checkpoint with vocabSize ≥ 151669/,
  );
});
