import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { EmbeddedEngine } from '../engines/embedded/engine.ts';
import { heldOutPrompts } from './corpus.ts';
import { promptIds } from './encode.ts';

const dir = new URL('../../checkpoints/base/', import.meta.url).pathname;

test('the committed base checkpoint loads with a fresh optimizer and writes sensible text', async () => {
  assert.ok(existsSync(`${dir}config.json`), `missing ${dir}config.json: run npm run pretrain`);
  assert.equal(existsSync(`${dir}optimizer.safetensors`), false, 'the base checkpoint carries no optimizer state');
  const engine = await EmbeddedEngine.load(dir, { keepReference: false });
  try {
    assert.equal(engine.optimizerStep, 0);
    assert.equal(engine.version(), 0);
    const tok = engine.tokenizer;
    assert.ok(tok !== null);
    assert.equal(tok.vocabSize, engine.config.vocabSize);
    const prompt = heldOutPrompts()[0];
    const out = await engine.generate({ promptIds: promptIds(tok, [{ role: 'user', content: prompt.text }]), maxTokens: 6, temperature: 0, stopTokenIds: [tok.special['<|im_end|>']] });
    assert.equal(out.tokenIds.length, 6);
    const text = tok.decode(out.tokenIds);
    // Six greedy tokens of a trained model are words, not byte soup or special tokens.
    assert.match(text, /^[A-Za-z*]/);
    assert.doesNotMatch(text, /<\|im_|\uFFFD/);
  } finally {
    await engine.close();
  }
});
