// A sampled-whole policy (as Tinker's sampler answers) served through the real gateway by
// tokenPolicy with the real Qwen3 tokenizer: the official openai client parses streamed and plain
// answers with reasoning and tool calls, and the recorded turns hold exactly the engine's ids and
// log-probs (never re-tokenised).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import pino from 'pino';
import { parseConfig, type Config } from '../../src/config/index.ts';
import { startServer, type RunningServer } from '../../src/app/index.ts';
import { tokenPolicy, type Policy } from '../../src/app/policy.ts';
import { loadHfTokenizer, type HfTokenizer } from '../../src/tokenize/index.ts';
import { qwen3TokenizerDir } from '../support/qwen3-fixture.ts';
import { readRecords } from '../../src/sessions/index.ts';
import { OpenClawError } from '../../src/errors/index.ts';
import type { GenerateRequest, GenerateResult, PolicyEngine } from '../../src/engines/types.ts';

const IM_END = 151645;

/** Returns the scripted answers' whole sequences at once and never reports tokens on the way. */
class WholeSequenceEngine implements PolicyEngine {
  readonly kind = 'whole-sequence';
  readonly requests: GenerateRequest[] = [];
  readonly answered: Array<{ ids: number[]; logprobs: number[] }> = [];
  private readonly queue: string[] = [];
  constructor(private readonly hf: HfTokenizer) {}
  script(...texts: string[]) {
    this.queue.push(...texts);
  }
  version() {
    return 5;
  }
  async generate(req: GenerateRequest): Promise<GenerateResult> {
    this.requests.push(req);
    const text = this.queue.shift() ?? 'No more scripted answers.';
    await new Promise((r) => setTimeout(r, 5)); // a remote sampler takes a while
    const ids = [...this.hf.encode(text), IM_END];
    const logprobs = ids.map((_, i) => -Math.round(1000 * (0.05 + ((i * 37) % 11) / 13)) / 1000);
    this.answered.push({ ids, logprobs });
    return { tokenIds: ids, logprobs, finishReason: 'stop', version: 5 };
  }
  async score(): Promise<never> {
    throw new Error('not used');
  }
  async close() {}
}

let hf: HfTokenizer;
let engine: WholeSequenceEngine;
let policy: Policy;
let server: RunningServer;
let outDir: string;
let client: OpenAI;
let config: Config;

before(async () => {
  hf = await loadHfTokenizer(qwen3TokenizerDir());
  engine = new WholeSequenceEngine(hf);
  outDir = mkdtempSync(join(tmpdir(), 'ocrl-token-policy-'));
  config = parseConfig(
    {
      rollout: {
        provider: 'openai_compatible',
        base_url: 'http://127.0.0.1:9/v1',
        model_id: 'qwen3-policy',
        max_tokens: 256,
        tokenizer: qwen3TokenizerDir(),
      },
    },
    { env: {}, overrides: { output_dir: outDir, 'server.port': 0 } },
  );
  policy = await tokenPolicy(config, engine);
  server = await startServer(config, { channel: policy.channel, log: pino({ level: 'silent' }) });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
after(async () => {
  await server.close();
  rmSync(outDir, { recursive: true, force: true });
});

const tools = [
  {
    type: 'function' as const,
    function: {
      name: 'read',
      description: 'Read a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
  {
    type: 'function' as const,
    function: { name: 'exec', description: 'Run a command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } },
  },
];
const TOOL_ANSWER =
  '<think>\nRead both files.\n</think>\n\nReading them now.\n<tool_call>\n{"name": "read", "arguments": {"path": "a.txt"}}\n</tool_call>\n<tool_call>\n{"name": "exec", "arguments": {"cmd": "cat b.txt | wc -l"}}\n</tool_call>';

test('streamed: the openai client assembles reasoning, content and both tool calls; the turn records the engine ids', async () => {
  engine.script(TOOL_ANSWER, 'a.txt says hi; b.txt has 3 lines.');
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are an agent.' },
    { role: 'user', content: 'What is in a.txt and how long is b.txt?' },
  ];
  const headers = { 'X-Session-Id': 'tok-stream', 'X-Turn-Type': 'main' };
  const stream = client.chat.completions.stream(
    { model: 'qwen3-policy', messages, tools, stream_options: { include_usage: true } },
    { headers },
  );
  let reasoning = '';
  stream.on('chunk', (chunk) => {
    reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '';
  });
  const final = await stream.finalChatCompletion();
  const choice = final.choices[0];
  assert.equal(choice.finish_reason, 'tool_calls');
  assert.equal(choice.message.content, 'Reading them now.');
  assert.equal(reasoning, 'Read both files.');
  const calls = choice.message.tool_calls!.map((c) => (c.type === 'function' ? [c.function.name, JSON.parse(c.function.arguments)] : null));
  assert.deepEqual(calls, [
    ['read', { path: 'a.txt' }],
    ['exec', { cmd: 'cat b.txt | wc -l' }],
  ]);
  assert.ok(choice.message.tool_calls!.every((c) => /^call_/.test(c.id)));
  const promptIds = hf.encode(hf.renderChat(messages as never, { tools, addGenerationPrompt: true }));
  assert.deepEqual(engine.requests.at(-1)!.promptIds, promptIds);
  assert.deepEqual(final.usage, {
    prompt_tokens: promptIds.length,
    completion_tokens: engine.answered[0].ids.length,
    total_tokens: promptIds.length + engine.answered[0].ids.length,
  });

  // The tool results finish turn 1 (its next state) and ask for turn 2, streamed again.
  const next = [
    ...messages,
    choice.message as OpenAI.ChatCompletionMessageParam,
    { role: 'tool' as const, tool_call_id: choice.message.tool_calls![0].id, content: 'hi' },
    { role: 'tool' as const, tool_call_id: choice.message.tool_calls![1].id, content: '3' },
  ];
  const second = await client.chat.completions.stream({ model: 'qwen3-policy', messages: next, tools }, { headers }).finalChatCompletion();
  assert.equal(second.choices[0].message.content, 'a.txt says hi; b.txt has 3 lines.');
  assert.equal(second.choices[0].finish_reason, 'stop');

  const { turns } = readRecords(join(outDir, 'records', 'turns.jsonl'));
  const t1 = turns.find((t) => t.session_id === 'tok-stream' && t.turn_id === 1)!;
  assert.deepEqual(t1.response_ids, engine.answered[0].ids);
  assert.deepEqual(t1.logprobs, engine.answered[0].logprobs);
  assert.deepEqual(t1.prompt_ids, promptIds);
  assert.equal(t1.policy_version, 5);
  assert.deepEqual(
    (t1.tool_calls as any[]).map((c) => c.function.name),
    ['read', 'exec'],
  );
});

test('plain: message with tool_calls and reasoning_content; the turn records the engine ids; prompt encoded incrementally', async () => {
  engine.script(TOOL_ANSWER, 'Done.');
  const headers = { 'X-Session-Id': 'tok-plain', 'X-Turn-Type': 'main' };
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Look at a.txt.' }];
  const res = await client.chat.completions.create({ model: 'qwen3-policy', messages, tools }, { headers });
  const msg = res.choices[0].message as OpenAI.ChatCompletionMessage & { reasoning_content?: string };
  assert.equal(res.choices[0].finish_reason, 'tool_calls');
  assert.equal(msg.content, 'Reading them now.');
  assert.equal(msg.reasoning_content, 'Read both files.');
  assert.equal(msg.tool_calls!.length, 2);
  assert.equal(res.choices[0].logprobs, null, 'log-probs the client did not ask for are not returned');
  const answered = engine.answered.at(-1)!;
  const next = [
    ...messages,
    msg as OpenAI.ChatCompletionMessageParam,
    ...msg.tool_calls!.map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: 'ok' })),
  ];
  const second = await client.chat.completions.create({ model: 'qwen3-policy', messages: next, tools, logprobs: true }, { headers });
  assert.equal(second.choices[0].message.content, 'Done.');
  assert.deepEqual(
    second.choices[0].logprobs!.content!.map((c) => c.logprob),
    engine.answered.at(-1)!.logprobs,
  );
  assert.deepEqual(
    engine.requests.at(-1)!.promptIds,
    hf.encode(hf.renderChat(next as never, { tools, addGenerationPrompt: true })),
    'incremental prompt ids equal a full encode',
  );

  const { turns } = readRecords(join(outDir, 'records', 'turns.jsonl'));
  const t1 = turns.find((t) => t.session_id === 'tok-plain' && t.turn_id === 1)!;
  assert.deepEqual(t1.response_ids, answered.ids);
  assert.deepEqual(t1.logprobs, answered.logprobs);
  assert.equal(t1.response_text, 'Reading them now.');
});

test('policy gauges: prompt cache use and malformed tool calls, as /metrics shows them', async () => {
  const before = policy.gauges!();
  engine.script('<tool_call>\n{"name": "read", "arguments": {path: a.txt}}\n</tool_call>');
  const res = await client.chat.completions.create(
    { model: 'qwen3-policy', messages: [{ role: 'user', content: 'Look at a.txt.' }], tools },
    { headers: { 'X-Session-Id': 'tok-malformed' } },
  );
  assert.equal(res.choices[0].message.content, '<tool_call>\n{"name": "read", "arguments": {path: a.txt}}\n</tool_call>');
  assert.equal(res.choices[0].message.tool_calls, undefined);
  const after = policy.gauges!();
  assert.equal(after.malformed_tool_calls, before.malformed_tool_calls + 1);
  assert.ok(before.prompt_cache_hits >= 2, 'the second turns of both sessions reused their first turn');
  assert.ok(after.prompt_chars_reused > after.prompt_chars_encoded / 4);
});

test('the teacher renders hinted prompts with the same template and ids as a full encode', () => {
  const messages = [{ role: 'user', content: "Look at a.txt.\n\n[user's hint / instruction]\nuse read" }];
  assert.deepEqual(policy.renderPrompt!(messages, tools), hf.encode(hf.renderChat(messages, { tools, addGenerationPrompt: true })));
});

test('tokenPolicy without rollout.tokenizer, or with a folder lacking the files, names what is missing', async () => {
  const bare = { ...config, rollout: { ...config.rollout, tokenizer: undefined } };
  await assert.rejects(
    tokenPolicy(bare, engine),
    (err: unknown) => err instanceof OpenClawError && err.kind === 'config' && /rollout\.tokenizer is required/.test(err.message),
  );
  const empty = mkdtempSync(join(tmpdir(), 'ocrl-empty-tok-'));
  try {
    await assert.rejects(
      tokenPolicy({ ...config, rollout: { ...config.rollout, tokenizer: empty } }, engine),
      (err: unknown) => err instanceof OpenClawError && /tokenizer\.json is missing/.test(err.message),
    );
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
