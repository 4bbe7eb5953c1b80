import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alignResponse, createAlignmentCounters, loadHfTokenizer, type HfTokenizer } from './index.ts';
import { qwen3TokenizerDir } from '../../test/support/qwen3-fixture.ts';
import { OpenClawError } from '../errors/index.ts';

const IM_END = 151645;
const NEWLINE = 198;
const tools = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];
const question = [
  { role: 'system', content: 'You are helpful.' },
  { role: 'user', content: 'Weather in Paris?' },
];
const toolCall = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } };

let qwen: HfTokenizer;
let scratch: string;

before(async () => {
  qwen = await loadHfTokenizer(qwen3TokenizerDir());
  scratch = await mkdtemp(join(tmpdir(), 'oc-align-'));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const fakeLogprobs = (n: number) => Array.from({ length: n }, (_, i) => -0.1 * (i + 1));

test('a tool-call response: prompt ids are a prefix and the response ids decode back to the response', () => {
  const counters = createAlignmentCounters();
  // The response as Qwen3 writes it after "<|im_start|>assistant\n" (empty think block in thinking mode).
  const expectedText =
    '<think>\n\n</think>\n\nLet me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>';
  const n = qwen.encode(expectedText).length;
  const out = alignResponse(
    qwen,
    {
      messages: question,
      tools,
      responseText: 'Let me check.',
      responseToolCalls: [toolCall],
      finishReason: 'tool_calls',
      upstreamLogprobs: fakeLogprobs(n),
    },
    counters,
  );
  assert.deepEqual(out.promptIds, qwen.encode(qwen.renderChat(question, { tools, addGenerationPrompt: true })));
  assert.ok(out.promptText.endsWith('<|im_start|>assistant\n'));
  assert.equal(qwen.decode(out.responseIds), expectedText);
  // The end-of-turn token the policy emitted is the last response token; the template's "\n" is not.
  assert.equal(out.responseIds.at(-1), IM_END);
  assert.notEqual(out.responseIds.at(-1), NEWLINE);
  assert.deepEqual(out.logprobs, fakeLogprobs(n));
  assert.deepEqual(out.logprobMask, new Array(n).fill(1));
  assert.equal(out.warning, null);
  assert.deepEqual(counters, { aligned: 1, padded: 0, trimmed: 0, prefixMismatch: 0, paddedTokens: 0, trimmedTokens: 0 });
});

test('after a tool result, with thinking off, the final answer aligns to its own tokens', () => {
  const messages = [
    ...question,
    { role: 'assistant', content: '', tool_calls: [toolCall] },
    { role: 'tool', tool_call_id: 'call_1', content: '{"temp_c": 18}' },
  ];
  const out = alignResponse(qwen, {
    messages,
    tools,
    responseText: 'It is 18°C in Paris.',
    upstreamLogprobs: fakeLogprobs(10),
    templateKwargs: { enable_thinking: false },
  });
  assert.ok(
    out.promptText.endsWith('<tool_response>\n{"temp_c": 18}\n</tool_response><|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n'),
  );
  // 9 tokens of text (hand-checked with the Qwen3 vocabulary) plus <|im_end|>.
  assert.deepEqual(out.responseIds, [2132, 374, 220, 16, 23, 30937, 304, 12095, 13, IM_END]);
  assert.equal(qwen.decode(out.responseIds), 'It is 18°C in Paris.<|im_end|>');
});

test('reasoning split off by the upstream is put back into the think block of the response', () => {
  const out = alignResponse(qwen, {
    messages: question,
    responseText: 'Sunny.',
    responseReasoning: 'Paris is sunny today.',
    upstreamLogprobs: fakeLogprobs(14),
  });
  assert.equal(qwen.decode(out.responseIds), '<think>\nParis is sunny today.\n</think>\n\nSunny.<|im_end|>');
});

test("finish_reason 'length' leaves the end-of-turn token out of the response", () => {
  const out = alignResponse(qwen, {
    messages: question,
    responseText: 'It is',
    finishReason: 'length',
    upstreamLogprobs: fakeLogprobs(6),
    templateKwargs: { enable_thinking: false },
  });
  assert.equal(qwen.decode(out.responseIds), 'It is');
  assert.equal(out.responseIds.includes(IM_END), false);
  // 2 response tokens, 6 upstream log-probs: 4 trimmed.
  assert.equal(out.trimmed, 4);
});

test('missing upstream log-probs are padded with mask 0 and counted; surplus ones trimmed and counted', () => {
  const counters = createAlignmentCounters();
  const input = { messages: question, responseText: 'Sunny.', templateKwargs: { enable_thinking: false } };
  // 'Sunny.' is 3 tokens + <|im_end|> = 4 response ids.
  const short = alignResponse(qwen, { ...input, upstreamLogprobs: [-0.5, -0.25, -0.125] }, counters);
  assert.equal(short.responseIds.length, 4);
  assert.deepEqual(short.logprobs, [-0.5, -0.25, -0.125, 0]);
  assert.deepEqual(short.logprobMask, [1, 1, 1, 0]);
  assert.equal(short.padded, 1);
  assert.match(short.warning ?? '', /padded 1 of 4/);

  const long = alignResponse(qwen, { ...input, upstreamLogprobs: [-1, -2, -3, -4, -5, -6] }, counters);
  assert.deepEqual(long.logprobs, [-1, -2, -3, -4]);
  assert.deepEqual(long.logprobMask, [1, 1, 1, 1]);
  assert.equal(long.trimmed, 2);
  assert.match(long.warning ?? '', /trimmed 2/);

  const holes = alignResponse(qwen, { ...input, upstreamLogprobs: [-1, Number.NaN, -3, -4] }, counters);
  assert.deepEqual(holes.logprobMask, [1, 0, 1, 1]);
  assert.deepEqual(holes.logprobs, [-1, 0, -3, -4]);

  assert.deepEqual(counters, { aligned: 0, padded: 2, trimmed: 1, prefixMismatch: 0, paddedTokens: 2, trimmedTokens: 2 });
});

test('a prompt that is not a prefix of prompt+response is reported with its first mismatching index', async () => {
  // A template without special-token boundaries: "hel" + "lo world" re-merges into "hello" + " world".
  await symlink(join(qwen3TokenizerDir(), 'tokenizer.json'), join(scratch, 'tokenizer.json'));
  await writeFile(
    join(scratch, 'tokenizer_config.json'),
    JSON.stringify({ eos_token: '<|im_end|>', chat_template: '{% for m in messages %}{{ m.content }}{% endfor %}' }),
  );
  const tok = await loadHfTokenizer(scratch);
  const counters = createAlignmentCounters();
  assert.throws(
    () =>
      alignResponse(tok, { messages: [{ role: 'user', content: 'hel' }], responseText: 'lo world', upstreamLogprobs: [-1, -1] }, counters),
    (err: unknown) =>
      err instanceof OpenClawError &&
      err.kind === 'data' &&
      err.code === 'prefix_mismatch' &&
      /first mismatch at index 0 of 1 \(prompt has 49122 "hel", prompt\+response has 14990 "hello"\)/.test(err.message),
  );
  assert.equal(counters.prefixMismatch, 1);
});
