import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { createHttpTeacher } from '../scoring/index.ts';
import { OpenAICompatibleChannel } from '../engines/openai-compatible/index.ts';
import { WorkerEngine } from '../engines/embedded/worker-engine.ts';
import { EmbeddedChatTokenizer } from '../chat/index.ts';
import { trainBpe } from '../engines/embedded/tokenizer.ts';
import { startEngineServer, type RunningEngineServer } from './index.ts';

const tokenizer = trainBpe(['Hello there! How can I help you today?', 'The weather is nice today, thank you.'], 300);
const chatTok = new EmbeddedChatTokenizer(tokenizer);
const cfg = { vocabSize: tokenizer.vocabSize, dModel: 24, nLayer: 2, nHead: 2, ctx: 96 };
const messages = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'How is the weather?' },
];
const promptIds = chatTok.encodeChat(messages);
const responseIds = [...tokenizer.encode('The weather is nice'), tokenizer.special['<|im_end|>']];

let engine: WorkerEngine;
let server: RunningEngineServer;
let channel: OpenAICompatibleChannel;

before(async () => {
  engine = await WorkerEngine.create(cfg, { seed: 12, tokenizer });
  server = await startEngineServer({ engine, tokenizer: chatTok, modelId: 'tiny-embedded', contextLength: cfg.ctx });
  channel = new OpenAICompatibleChannel({
    channel: 'rollout',
    baseUrl: `${server.url}/v1`,
    model: 'tiny-embedded',
    timeoutMs: 20_000,
    firstTokenTimeoutMs: 20_000,
    maxRetries: 0,
  });
});

after(async () => {
  await channel.close();
  await server.close();
  await engine.close();
});

async function post(path: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await request(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, json: await res.body.json() };
}

test('teacher client (sglang dialect) scores through /generate exactly as engine.score does locally', async () => {
  const teacher = createHttpTeacher({ baseUrl: server.url, dialect: 'sglang', temperature: 0.7 });
  try {
    const remote = await teacher.score(promptIds, responseIds, { topK: 3 });
    const local = await engine.score({ promptIds, responseIds, temperature: 1, topK: 3 });
    assert.deepEqual(remote.logprobs, local.logprobs);
    assert.deepEqual(
      remote.topK,
      local.topK?.map((t) => ({ ids: Array.from(t.ids), logprobs: Array.from(t.logprobs) })),
    );
  } finally {
    await teacher.close();
  }
});

test('/generate answers in SGLang shape: input entries from logprob_start_len, entry 0 null, output log-probs', async () => {
  const input = [...promptIds, ...responseIds];
  const { status, json } = await post('/generate', {
    input_ids: input,
    return_logprob: true,
    logprob_start_len: promptIds.length - 1,
    top_logprobs_num: 2,
    sampling_params: { max_new_tokens: 5, temperature: 0.8, sampling_seed: 4, ignore_eos: true },
  });
  assert.equal(status, 200);
  const meta = json.meta_info;
  assert.equal(meta.input_token_logprobs.length, responseIds.length + 1);
  assert.deepEqual(meta.input_token_logprobs[0], [null, promptIds.at(-1), null]);
  const scored = await engine.score({ promptIds, responseIds, temperature: 1, topK: 2 });
  assert.deepEqual(
    meta.input_token_logprobs.slice(1),
    responseIds.map((id, i) => [scored.logprobs[i], id, null]),
  );
  assert.equal(meta.input_top_logprobs[0], null);
  assert.deepEqual(
    meta.input_top_logprobs[1],
    Array.from(scored.topK![0].ids, (id, j) => [scored.topK![0].logprobs[j], id, null]),
  );

  const local = await engine.generate({ promptIds: input, maxTokens: 5, temperature: 0.8, seed: 4 });
  assert.deepEqual(json.output_ids, local.tokenIds);
  assert.deepEqual(
    meta.output_token_logprobs,
    local.tokenIds.map((id, i) => [local.logprobs[i], id, null]),
  );
  assert.equal(meta.output_top_logprobs.length, 5);
  assert.equal(meta.output_top_logprobs[0].length, 2);
  assert.deepEqual(meta.finish_reason, { type: 'length', length: 5 });
  assert.equal(meta.prompt_tokens, input.length);
  assert.equal(meta.completion_tokens, 5);
  assert.equal(meta.policy_version, 0);
  assert.equal(json.text, tokenizer.decode(local.tokenIds));
});

test("chat through the gateway's OpenAICompatibleChannel: token ids and log-probs equal local generate", async () => {
  const body = { model: 'tiny-embedded', messages, max_tokens: 8, temperature: 1, seed: 3, logprobs: true, return_token_ids: true };
  const json = await channel.complete(body);
  const local = await engine.generate({ promptIds, maxTokens: 8, temperature: 1, seed: 3, stopTokenIds: chatTok.stopTokenIds });
  const choice = (json.choices as Array<Record<string, any>>)[0];
  assert.deepEqual(json.prompt_token_ids, promptIds);
  assert.deepEqual(choice.token_ids, local.tokenIds);
  assert.deepEqual(
    choice.logprobs.content.map((c: { logprob: number }) => c.logprob),
    local.logprobs,
  );
  assert.equal(json.policy_version, 0);

  const streamedIds: number[] = [];
  let text = '';
  for await (const ev of await channel.stream({ ...body, stream: true })) {
    const c = (ev.chunk.choices as Array<Record<string, any>>)[0];
    streamedIds.push(...(c?.token_ids ?? []));
    text += c?.delta?.content ?? '';
  }
  assert.deepEqual(streamedIds, local.tokenIds);
  assert.equal(text, choice.message.content);

  const plain = await channel.complete({ model: 'tiny-embedded', messages, max_tokens: 4, seed: 3 });
  const plainChoice = (plain.choices as Array<Record<string, unknown>>)[0];
  assert.equal(plainChoice.logprobs, null);
  assert.equal(plainChoice.token_ids, undefined);
  assert.equal(plain.prompt_token_ids, undefined);
  assert.deepEqual(await channel.health(), { ok: true, detail: `${server.url}/v1 reachable (HTTP 200 on /models)` });
});

test('bad requests get OpenAI error bodies with the right status', async () => {
  const missing = await post('/v1/chat/completions', { model: 'x' });
  assert.equal(missing.status, 400);
  assert.equal(missing.json.error.param, 'messages');
  const long = await post('/v1/chat/completions', { messages: [{ role: 'user', content: 'word '.repeat(200) }] });
  assert.equal(long.status, 400);
  assert.equal(long.json.error.code, 'context_length_exceeded');
  const batched = await post('/generate', { input_ids: [[1, 2], [3]] });
  assert.equal(batched.status, 400);
  assert.equal(batched.json.error.param, 'input_ids');
  const outOfVocab = await post('/generate', { input_ids: [1, 100000], sampling_params: { max_new_tokens: 0 }, return_logprob: true });
  assert.equal(outOfVocab.status, 400);
  const models = await request(`${server.url}/v1/models`);
  assert.deepEqual(
    ((await models.body.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id),
    ['tiny-embedded'],
  );
});
