import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GenerateRequest, ScoreRequest } from '../engines/types.ts';
import { makeSample } from '../../test/support/sample-fixtures.ts';
import type { StoredSample } from '../samples/index.ts';
import type { Teacher } from '../scoring/index.ts';
import { HermesOutputParser } from '../chat/index.ts';
import { replayHeldOut, runProbes, type VersionModel } from './replay.ts';

const STOP = 99;

function held(id: number, over: Partial<StoredSample> = {}): StoredSample {
  return {
    ...makeSample('h', id, { hint: 'be brief', teacherLogprobs: [-1, -1, -1], teacherPromptIds: [1, 2, 50 + id] }),
    state: 'dropped',
    dropReason: 'holdout',
    leaseId: null,
    leaseCount: 0,
    ...over,
  };
}

/** A model that answers [7, 8, STOP] at log-prob −0.5 per token at any temperature it samples at, and scores −2 per token. */
function fakeModel(): VersionModel & { generated: GenerateRequest[]; scored: ScoreRequest[] } {
  const generated: GenerateRequest[] = [];
  const scored: ScoreRequest[] = [];
  return {
    generated,
    scored,
    async generate(req) {
      generated.push(req);
      return { tokenIds: [7, 8, STOP], logprobs: [-0.5, -0.5, -0.5], finishReason: 'stop', version: 3 };
    },
    async score(req) {
      scored.push(req);
      return { logprobs: req.responseIds.map(() => -2), version: 3 };
    },
  };
}

function fakeTeacher(logprobTemperature: number, prompts: number[][]): Teacher {
  return {
    dialect: 'fake',
    logprobTemperature,
    async score(promptIds, responseIds) {
      prompts.push([...promptIds]);
      return { logprobs: responseIds.map(() => -0.25) };
    },
    stats: () => ({ inFlight: 0, waiting: 0 }),
    close: async () => {},
  };
}

const ANSWER = { maxTokens: 8, stopTokenIds: [STOP], decode: (ids: number[]) => ids.map((i) => `w${i}`).join(' ') };

test('replay: the teacher scores the new answer under the stored hinted prompt; same temperature → the sampled log-probs', async () => {
  const model = fakeModel();
  const prompts: number[][] = [];
  const r = await replayHeldOut([held(1), held(2), held(3, { teacherPromptIds: null }), held(4, { hint: null })], model, {
    ...ANSWER,
    temperature: 0.7,
    teacher: fakeTeacher(0.7, prompts),
  });
  assert.deepEqual(prompts, [
    [1, 2, 51],
    [1, 2, 52],
  ]);
  assert.equal(model.scored.length, 0, 'no re-scoring when the temperatures agree');
  assert.deepEqual(r.replay_opd_advantage, { value: -0.25 - -0.5, samples: 2 });
  assert.equal(r.replay_hint_satisfied, undefined, 'no judge (the rules judge): no hint metric');
  // Fixed seed per sample: the same sample gets the same seed every time, another sample another.
  const again = fakeModel();
  await replayHeldOut([held(1)], again, { ...ANSWER, temperature: 0.7, teacher: fakeTeacher(0.7, []) });
  assert.equal(again.generated[0].seed, model.generated[0].seed);
  assert.notEqual(model.generated[0].seed, model.generated[1].seed);
});

test("replay: a teacher reporting log-probs at T = 1 has the student's re-scored at T = 1", async () => {
  const model = fakeModel();
  const r = await replayHeldOut([held(1)], model, { ...ANSWER, temperature: 0.7, teacher: fakeTeacher(1, []) });
  assert.deepEqual(
    model.scored.map((s) => s.temperature),
    [1],
  );
  assert.deepEqual(r.replay_opd_advantage, { value: -0.25 - -2, samples: 1 });
});

test('replay: the judge votes on the answer text; a teacher failure skips the sample, never the evaluation', async () => {
  const calls: string[] = [];
  const skipped: string[] = [];
  let n = 0;
  const teacher = fakeTeacher(1, []);
  const flaky: Teacher = {
    ...teacher,
    score: (p, r) => (n++ === 0 ? Promise.reject(new Error('teacher down')) : teacher.score(p, r)),
  };
  const r = await replayHeldOut([held(1), held(2)], fakeModel(), {
    ...ANSWER,
    temperature: 1,
    teacher: flaky,
    hintCheck: {
      m: 3,
      temperature: 0,
      maxTokens: 64,
      call: async (messages) => {
        calls.push(String(messages[1].content));
        return calls.length % 3 === 0 ? 'hmm \\boxed{no}' : 'fine. \\boxed{Yes}';
      },
    },
    onSkip: (id) => skipped.push(id),
  });
  assert.deepEqual(skipped, ['h:1']);
  assert.equal(calls.length, 3);
  assert.match(calls[0], /be brief[\s\S]*w7 w8$/, 'the hint and the answer without its stop token');
  assert.deepEqual(r.replay_hint_satisfied, { value: 1, samples: 1 }, 'two yes of three');
});

test('probes: length, empty and garbled shares; KL against the serving weights when given', async () => {
  const answers = [
    { tokenIds: [7, 8, STOP], text: 'a fine short answer' },
    { tokenIds: [STOP], text: '' },
    { tokenIds: [5, 5, 5, 5], text: 'la la la la la la la la la la' },
  ];
  let i = 0;
  const model: VersionModel = {
    async generate() {
      const a = answers[i++];
      return { tokenIds: a.tokenIds, logprobs: a.tokenIds.map(() => -1), finishReason: 'stop', version: 1 };
    },
    async score(req) {
      return { logprobs: req.responseIds.map(() => -1), version: 1 };
    },
  };
  const texts = new Map(answers.map((a) => [a.tokenIds.filter((t) => t !== STOP).join(','), a.text]));
  const probes = ['a', 'b', 'c'].map((p, k) => ({ where: `p.jsonl:${k + 1}`, messages: [{ role: 'user' as const, content: p }] }));
  const r = await runProbes(probes, model, {
    temperature: 1,
    maxTokens: 8,
    stopTokenIds: [STOP],
    decode: (ids) => texts.get(ids.join(',')) ?? '',
    render: (m) => [1, m[0].content.length],
    serving: async (req) => ({ logprobs: req.responseIds.map(() => -1.5), version: 0 }),
  });
  assert.deepEqual(r.probe_length_mean, { value: (2 + 0 + 4) / 3, samples: 3 });
  assert.deepEqual(r.probe_empty_rate, { value: 1 / 3, samples: 3 });
  assert.deepEqual(r.probe_garbled_rate, { value: 1 / 3, samples: 3 }, 'the loop is garbled; the empty answer is only empty');
  assert.deepEqual(r.probe_kl, { value: 0.5, samples: 3 });
});

test("probes with tools: the share of finished answers whose calls are broken, read with the policy's parser", async () => {
  const answers = [
    { tokenIds: [1, STOP], text: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>', finish: 'stop' },
    { tokenIds: [2, STOP], text: '<tool_call>\n{"name": "get_weather", "arguments": {}}\n</tool_call>', finish: 'stop' },
    { tokenIds: [3, STOP], text: 'It is sunny in Oslo.', finish: 'stop' },
    { tokenIds: [4], text: '<tool_call>\n{"name": "get_wea', finish: 'length' },
    { tokenIds: [5, STOP], text: '<tool_call>{"name": "nope"}</tool_call>', finish: 'stop' },
  ] as const;
  let i = 0;
  const model: VersionModel = {
    async generate() {
      const a = answers[i++];
      return { tokenIds: [...a.tokenIds], logprobs: a.tokenIds.map(() => -1), finishReason: a.finish, version: 1 };
    },
    async score(req) {
      return { logprobs: req.responseIds.map(() => -1), version: 1 };
    },
  };
  const texts = new Map<string, string>(answers.map((a) => [a.tokenIds.filter((t) => t !== STOP).join(','), a.text]));
  const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { required: ['city'] } } }];
  const rendered: unknown[] = [];
  const probes = answers.map((_, k) => ({
    where: `p:${k}`,
    messages: [{ role: 'user' as const, content: 'weather?' }],
    ...(k < 4 ? { tools } : {}),
  }));
  const r = await runProbes(probes, model, {
    temperature: 1,
    maxTokens: 8,
    stopTokenIds: [STOP],
    decode: (ids) => texts.get(ids.join(',')) ?? '',
    parser: () => new HermesOutputParser(),
    render: (_m, t) => {
      rendered.push(t);
      return [1];
    },
  });
  assert.deepEqual(rendered, [tools, tools, tools, tools, undefined], 'the tools reach the chat template');
  // Read: the good call, the call without its required city (broken), the answer in words; the
  // answer cut at max_tokens and the probe without tools are not.
  assert.deepEqual(r.probe_tool_error_rate, { value: 1 / 3, samples: 3 });
});

test('probes are answered in one call where the model decodes several together; if that call fails, one by one, skipping only what fails', async () => {
  const probes = ['a', 'b', 'c'].map((p, k) => ({ where: `p:${k}`, messages: [{ role: 'user' as const, content: p }] }));
  const answer = { tokenIds: [7, 8, STOP], logprobs: [-1, -1, -1], finishReason: 'stop' as const, version: 1 };
  const settings = {
    temperature: 1,
    maxTokens: 8,
    stopTokenIds: [STOP],
    render: (m: { content: string }[]) => [1, m[0].content.charCodeAt(0)],
  };
  const batched: number[] = [];
  const together = await runProbes(
    probes,
    {
      generate: async () => assert.fail('one at a time'),
      generateMany: async (reqs) => {
        batched.push(reqs.length);
        return reqs.map(() => answer);
      },
      score: async (r) => ({ logprobs: r.responseIds.map(() => -1), version: 1 }),
    },
    settings,
  );
  assert.deepEqual(batched, [3]);
  assert.equal(together.probe_length_mean?.samples, 3);
  const skipped: string[] = [];
  const alone = await runProbes(
    probes,
    {
      generate: async (r) => (r.promptIds[1] === 'b'.charCodeAt(0) ? Promise.reject(new Error('too long')) : answer),
      generateMany: async () => Promise.reject(new Error('too long')),
      score: async (r) => ({ logprobs: r.responseIds.map(() => -1), version: 1 }),
    },
    { ...settings, onSkip: (where) => skipped.push(where) },
  );
  assert.deepEqual(skipped, ['p:1']);
  assert.equal(alone.probe_length_mean?.samples, 2);
});
