// TokenChatChannel with a real HF tokenizer (Qwen3) and engines that return the whole sequence at
// once (as Tinker's sampler does) or report it token by token: same chunks, same message.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import type { GenerateRequest, GenerateResult, PolicyEngine } from '../engines/types.ts';
import { TokenChatChannel, WHOLE_SEQUENCE_CHUNK_TOKENS } from './token-chat-channel.ts';
import { loadHfTokenizer, type HfTokenizer } from '../tokenize/index.ts';
import { HfChatTokenizer } from './hf-chat-tokenizer.ts';
import { qwen3TokenizerDir } from '../../test/support/qwen3-fixture.ts';

let hf: HfTokenizer;
let chat: HfChatTokenizer;
before(async () => {
  hf = await loadHfTokenizer(qwen3TokenizerDir());
  chat = new HfChatTokenizer(hf);
});

const IM_END = 151645;

/** Answers `text` + <|im_end|>; `perToken` also reports each token as it is "sampled". */
class FixedEngine implements PolicyEngine {
  readonly kind = 'fixed';
  requests: GenerateRequest[] = [];
  ids: number[] = [];
  logprobs: number[] = [];
  constructor(
    private readonly perToken: boolean,
    private readonly finish: 'stop' | 'length' = 'stop',
  ) {}
  answer(text: string, stop = true): this {
    this.ids = [...hf.encode(text), ...(stop ? [IM_END] : [])];
    this.logprobs = this.ids.map((_, i) => -0.01 * (i + 1));
    return this;
  }
  version() {
    return 7;
  }
  async generate(req: GenerateRequest, onToken?: (id: number, lp: number) => void): Promise<GenerateResult> {
    this.requests.push(req);
    if (this.perToken) this.ids.forEach((id, i) => onToken?.(id, this.logprobs[i]));
    return { tokenIds: [...this.ids], logprobs: [...this.logprobs], finishReason: this.finish, version: 7 };
  }
  async score(): Promise<never> {
    throw new Error('not used');
  }
  async close() {}
}

const opts = { modelId: 'qwen3', defaultTemperature: 1, defaultMaxTokens: 64, contextLength: 4096 };
const messages = [{ role: 'user', content: 'Weather in Paris and Lyon?' }];
const tools = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
];
const ANSWER =
  '<think>\nTwo cities, two calls. 🌦️\n</think>\n\nChecking both — 天气.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lyon"}}\n</tool_call>';

/** Gathers a stream the way a client (and the gateway) would. */
async function collect(channel: TokenChatChannel, body: Record<string, unknown>) {
  const out = {
    chunks: 0,
    content: '',
    reasoning: '',
    calls: [] as any[],
    ids: [] as number[],
    lps: [] as number[],
    finish: null as unknown,
    version: undefined as unknown,
    promptIds: undefined as unknown,
    usage: undefined as unknown,
  };
  for await (const ev of await channel.stream(body)) {
    out.chunks++;
    assert.equal(ev.raw, JSON.stringify(ev.chunk));
    if (ev.chunk.prompt_token_ids !== undefined) out.promptIds = ev.chunk.prompt_token_ids;
    if (ev.chunk.policy_version !== undefined) out.version = ev.chunk.policy_version;
    if (ev.chunk.usage !== undefined) out.usage = ev.chunk.usage;
    for (const choice of ev.chunk.choices as any[]) {
      out.content += choice.delta.content ?? '';
      out.reasoning += choice.delta.reasoning_content ?? '';
      for (const tc of choice.delta.tool_calls ?? []) out.calls[tc.index] = { id: tc.id, type: tc.type, function: tc.function };
      out.ids.push(...(choice.token_ids ?? []));
      for (const c of choice.logprobs?.content ?? []) out.lps.push(c.logprob);
      out.finish = choice.finish_reason ?? out.finish;
    }
  }
  return out;
}

for (const perToken of [false, true]) {
  const label = perToken ? 'per-token engine' : 'whole-sequence engine';

  test(`${label}: streamed chunks carry the engine's ids and log-probs, reasoning, content and tool calls`, async () => {
    const engine = new FixedEngine(perToken).answer(ANSWER);
    const s = await collect(new TokenChatChannel(engine, chat, opts), { messages, tools, stream_options: { include_usage: true } });
    assert.deepEqual(s.ids, engine.ids);
    assert.deepEqual(s.lps, engine.logprobs);
    assert.deepEqual(s.promptIds, chat.encodeChat(messages, tools));
    assert.equal(s.reasoning, 'Two cities, two calls. 🌦️');
    assert.equal(s.content, 'Checking both — 天气.');
    assert.deepEqual(
      s.calls.map((c) => [c.type, c.function.name, JSON.parse(c.function.arguments)]),
      [
        ['function', 'get_weather', { city: 'Paris' }],
        ['function', 'get_weather', { city: 'Lyon' }],
      ],
    );
    assert.equal(s.finish, 'tool_calls');
    assert.equal(s.version, 7);
    assert.deepEqual(s.usage, {
      prompt_tokens: (s.promptIds as number[]).length,
      completion_tokens: engine.ids.length,
      total_tokens: (s.promptIds as number[]).length + engine.ids.length,
    });
    const tokenChunks = perToken ? engine.ids.length : Math.ceil(engine.ids.length / WHOLE_SEQUENCE_CHUNK_TOKENS);
    assert.ok(tokenChunks > 2);
    assert.equal(
      s.chunks,
      1 + tokenChunks + 1 + 1,
      'role chunk, token chunks (one per token when reported one by one), final chunk, usage chunk',
    );
    assert.deepEqual(engine.requests[0].stopTokenIds, [IM_END]);
  });

  test(`${label}: the plain answer has the same message as the stream`, async () => {
    const engine = new FixedEngine(perToken).answer(ANSWER);
    const channel = new TokenChatChannel(engine, chat, opts);
    const body = await channel.complete({ messages, tools });
    const choice = (body.choices as any[])[0];
    const s = await collect(channel, { messages, tools });
    assert.equal(choice.message.content, s.content);
    assert.equal(choice.message.reasoning_content, s.reasoning);
    assert.deepEqual(
      choice.message.tool_calls.map((c: any) => c.function),
      s.calls.map((c) => c.function),
    );
    assert.match(choice.message.tool_calls[0].id, /^call_/);
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.deepEqual(choice.token_ids, engine.ids);
    assert.deepEqual(
      choice.logprobs.content.map((c: any) => c.logprob),
      engine.logprobs,
    );
    assert.equal(choice.logprobs.content.at(-1).token, '<|im_end|>');
    assert.equal(body.policy_version, 7);
  });
}

test('a tool-call-only answer has content null; a cut answer keeps finish_reason length', async () => {
  const only = await new TokenChatChannel(
    new FixedEngine(false).answer('<tool_call>\n{"name": "get_weather", "arguments": {}}\n</tool_call>'),
    chat,
    opts,
  ).complete({ messages, tools });
  assert.equal((only.choices as any[])[0].message.content, null);
  assert.equal((only.choices as any[])[0].message.tool_calls[0].function.arguments, '{}');
  const cut = await new TokenChatChannel(new FixedEngine(false, 'length').answer('<think>\nhmm, still', false), chat, opts).complete({
    messages,
  });
  assert.equal((cut.choices as any[])[0].finish_reason, 'length');
  assert.equal((cut.choices as any[])[0].message.reasoning_content, 'hmm, still');
  assert.equal((cut.choices as any[])[0].message.content, '');
});

test('malformed tool-call JSON: kept as text, counted, warned, finish_reason stop', async () => {
  const warnings: string[] = [];
  const channel = new TokenChatChannel(
    new FixedEngine(false).answer('<tool_call>\n{"name": "get_weather", "arguments": {city: Paris}}\n</tool_call>'),
    chat,
    { ...opts, onWarning: (m) => warnings.push(m) },
  );
  const body = await channel.complete({ messages, tools });
  const choice = (body.choices as any[])[0];
  assert.equal(choice.message.content, '<tool_call>\n{"name": "get_weather", "arguments": {city: Paris}}\n</tool_call>');
  assert.equal(choice.message.tool_calls, undefined);
  assert.equal(choice.finish_reason, 'stop');
  const s = await collect(channel, { messages, tools });
  assert.equal(s.content, choice.message.content);
  assert.equal(channel.counters.malformed_tool_calls, 2);
  assert.equal(warnings.length, 2);
  assert.match(warnings[0], /not valid .*JSON.*kept as content/);
});

test('multi-byte characters split across tokens stream whole', async () => {
  const text = '🌦️🌦️ 天气很好 — naïve café ✓'.repeat(3);
  const s = await collect(new TokenChatChannel(new FixedEngine(false).answer(text), chat, opts), { messages });
  assert.equal(s.content, text);
});
