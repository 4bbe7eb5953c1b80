import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GenerateRequest, GenerateResult, PolicyEngine } from '../engines/types.ts';
import { TokenChatChannel } from './token-chat-channel.ts';
import { EmbeddedChatTokenizer } from './embedded-chat-tokenizer.ts';
import { applyChatTemplate } from './embedded-chat-template.ts';
import { trainBpe } from '../engines/embedded/tokenizer.ts';

const tokenizer = trainBpe(['Hi there, how can I help?', 'hello there friend'], 280);
const chatTok = new EmbeddedChatTokenizer(tokenizer);
const imEnd = tokenizer.special['<|im_end|>'];
const answerIds = [...tokenizer.encode('Hi there'), imEnd];
const answerLogprobs = answerIds.map((_, i) => -0.5 - i / 10);

/** An engine that always answers "Hi there<|im_end|>" and records what it was asked. */
class ScriptedEngine implements PolicyEngine {
  readonly kind = 'scripted';
  requests: GenerateRequest[] = [];
  version() {
    return 3;
  }
  async generate(req: GenerateRequest, onToken?: (id: number, lp: number) => void): Promise<GenerateResult> {
    this.requests.push(req);
    answerIds.forEach((id, i) => onToken?.(id, answerLogprobs[i]));
    return { tokenIds: answerIds, logprobs: answerLogprobs, finishReason: 'stop', version: 3 };
  }
  async score(): Promise<never> {
    throw new Error('not used');
  }
  async close() {}
}

const messages = [{ role: 'user', content: 'hello' }];
const opts = { modelId: 'tiny', defaultTemperature: 1, defaultMaxTokens: 16, contextLength: 64 };

test('complete: stop token counted in token ids and log-probs, never in the text', async () => {
  const engine = new ScriptedEngine();
  const body = await new TokenChatChannel(engine, chatTok, opts).complete({ messages });
  const choice = (body.choices as Array<Record<string, any>>)[0];
  assert.equal(choice.message.content, 'Hi there');
  assert.equal(choice.finish_reason, 'stop');
  assert.deepEqual(choice.token_ids, answerIds);
  assert.deepEqual(
    choice.logprobs.content.map((c: { logprob: number }) => c.logprob),
    answerLogprobs,
  );
  assert.equal(choice.logprobs.content.at(-1).token, '<|im_end|>');
  assert.deepEqual(body.prompt_token_ids, applyChatTemplate(tokenizer, messages, { addGenerationPrompt: true }));
  assert.equal(body.policy_version, 3);
  assert.deepEqual(engine.requests[0].stopTokenIds, chatTok.stopTokenIds);
});

test('stream: the stop token arrives as ids and a log-prob with empty text', async () => {
  const channel = new TokenChatChannel(new ScriptedEngine(), chatTok, opts);
  let text = '';
  const ids: number[] = [];
  const lps: number[] = [];
  let finish: unknown = null;
  for await (const ev of await channel.stream({ messages, stream_options: { include_usage: true } })) {
    const choice = (ev.chunk.choices as Array<Record<string, any>>)[0];
    if (choice === undefined) {
      const p = chatTok.encodeChat(messages).length;
      assert.deepEqual(ev.chunk.usage, { prompt_tokens: p, completion_tokens: answerIds.length, total_tokens: p + answerIds.length });
      continue;
    }
    text += choice.delta.content ?? '';
    ids.push(...(choice.token_ids ?? []));
    for (const c of choice.logprobs?.content ?? []) lps.push(c.logprob);
    finish = choice.finish_reason ?? finish;
  }
  assert.equal(text, 'Hi there');
  assert.deepEqual(ids, answerIds);
  assert.deepEqual(lps, answerLogprobs);
  assert.equal(finish, 'stop');
});

test('EmbeddedChatTokenizer ignores tools by default and can list them in the system message', () => {
  const tools = [{ type: 'function', function: { name: 'get_time', description: 'Current time', parameters: { type: 'object' } } }];
  assert.deepEqual(chatTok.encodeChat(messages, tools), chatTok.encodeChat(messages));
  const withTools = new EmbeddedChatTokenizer(tokenizer, { tools: 'system' });
  const expected = applyChatTemplate(
    tokenizer,
    [{ role: 'system', content: '# Tools\n- get_time({"type":"object"}): Current time' }, ...messages],
    { addGenerationPrompt: true },
  );
  assert.deepEqual(withTools.encodeChat(messages, tools), expected);
  const sys = [{ role: 'system', content: 'Be brief.' }, ...messages];
  const merged = applyChatTemplate(
    tokenizer,
    [{ role: 'system', content: 'Be brief.\n\n# Tools\n- get_time({"type":"object"}): Current time' }, ...messages],
    { addGenerationPrompt: true },
  );
  assert.deepEqual(withTools.encodeChat(sys, tools), merged);
  assert.deepEqual(chatTok.stopTokenIds, [imEnd, tokenizer.special['<|endoftext|>']]);
  assert.deepEqual(chatTok.encodeText('a<|im_end|>'), [...tokenizer.encode('a'), imEnd]);
});
