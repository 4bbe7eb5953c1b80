import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadChatTokenizer } from './load-chat-tokenizer.ts';
import { qwen3TokenizerDir } from '../../test/support/qwen3-fixture.ts';
import { BASE_CHECKPOINT } from '../app/policy.ts';
import { HfChatTokenizer } from './hf-chat-tokenizer.ts';
import { EmbeddedChatTokenizer } from './embedded-chat-tokenizer.ts';
import { tempDir } from '../../test/support/temp.ts';

const chat = [{ role: 'user' as const, content: 'hello there' }];

test('an embedded checkpoint folder loads as the embedded ChatML tokenizer with its context window', async () => {
  const { tokenizer, format, contextLength } = await loadChatTokenizer(BASE_CHECKPOINT);
  assert.equal(format, 'embedded');
  assert.equal(contextLength, 512);
  assert.ok(tokenizer instanceof EmbeddedChatTokenizer, 'embedded tokenizer');
  const ids = tokenizer.encodeChat(chat);
  assert.match(tokenizer.decode(ids), /^<\|im_start\|>user\nhello there<\|im_end\|>\n<\|im_start\|>assistant\n$/);
  assert.equal(tokenizer.stopTokenIds.length, 2);
});

test('a Hugging Face folder loads as HfChatTokenizer (Qwen3 template)', async () => {
  const { tokenizer, format, contextLength } = await loadChatTokenizer(qwen3TokenizerDir());
  assert.equal(format, 'hf');
  assert.equal(contextLength, undefined);
  assert.ok(tokenizer instanceof HfChatTokenizer, 'hf tokenizer');
  assert.match(tokenizer.decode(tokenizer.encodeChat(chat)), /<\|im_start\|>user\nhello there<\|im_end\|>/);
});

test('a folder that is neither names the missing Hugging Face files', async () => {
  const dir = tempDir('ocrl-tok-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'qwen3' }));
  await assert.rejects(
    loadChatTokenizer(dir),
    (err: Error) => /tokenizer\.json is missing/.test(err.message) && /rollout\.tokenizer/.test(err.message),
  );
});

test('an embedded checkpoint without a tokenizer.json says which file is missing', async () => {
  const dir = tempDir('ocrl-tok-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ format: 'openclaw-embedded', model: { ctx: 64 } }));
  await assert.rejects(loadChatTokenizer(dir), (err: Error) => err.message.includes(join(dir, 'tokenizer.json')));
});
