import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OpenClawError } from '../../errors/index.ts';
import { teacherFromBackend } from './teacher.ts';
import { startFakeTinker } from '../../../test/support/fake-tinker.ts';
import { TinkerClient } from '../../engines/tinker/index.ts';
import { tinkerTeacherBackend } from './tinker.ts';
import { tempDir } from '../../../test/support/temp.ts';

async function setup(model = 'Qwen/Qwen3-8B') {
  const fake = await startFakeTinker();
  const client = new TinkerClient({ baseUrl: fake.url, stateDir: tempDir('tinker-teacher-'), pollIntervalMs: 5 });
  const teacher = teacherFromBackend(tinkerTeacherBackend(client, model, { ownsClient: true }), { maxConcurrency: 2 });
  return {
    fake,
    teacher,
    done: async () => {
      await teacher.close();
      await fake.close();
    },
  };
}

test('teacher: prompt log-probs of hinted prompt + the exact response ids, on the base model', async () => {
  const { fake, teacher, done } = await setup();
  try {
    const s = await teacher.score([11, 12, 13, 14], [21, 22, 23]);
    assert.deepEqual(s.logprobs, [-0.4, -0.5, -0.6]);
    assert.equal(teacher.logprobTemperature, 1);
    const body = fake.requests.find((r) => r.path === '/asample')!.body;
    assert.deepEqual(body.prompt.chunks[0].tokens, [11, 12, 13, 14, 21, 22, 23]);
    assert.equal(body.base_model, 'Qwen/Qwen3-8B');
    assert.equal(body.prompt_logprobs, true);
  } finally {
    await done();
  }
});

test('teacher: a sampler path is scored with model_path', async () => {
  const { fake, teacher, done } = await setup('tinker://m/sampler_weights/v1');
  try {
    await teacher.score([1, 2], [3]);
    assert.equal(fake.requests.find((r) => r.path === '/asample')!.body.model_path, 'tinker://m/sampler_weights/v1');
  } finally {
    await done();
  }
});

test('teacher: a wrong number of prompt log-probs is a teacher_mismatch, never padded', async () => {
  const { fake, teacher, done } = await setup();
  try {
    fake.handlers.set('/asample', () => ({ sequences: [{ tokens: [1], logprobs: [-1] }], prompt_logprobs: [null, -1, -1] }));
    await assert.rejects(
      teacher.score([1, 2], [3, 4]),
      (e: OpenClawError) => e.code === 'teacher_mismatch' && /3 prompt log-probs for 4/.test(e.message),
    );
  } finally {
    await done();
  }
});

test('teacher: a server that refuses top-K says to set scoring.distill_topk: 0', async () => {
  const { fake, teacher, done } = await setup();
  try {
    fake.submitScript.set('/asample', [{ status: 400, body: { detail: 'topk_prompt_logprobs is not supported by the JAX backend' } }]);
    await assert.rejects(
      teacher.score([1, 2], [3], { topK: 5 }),
      (e: OpenClawError) => e.kind === 'config' && /scoring\.distill_topk: 0/.test(e.message),
    );
    // a server that ignores the field instead: named as a mismatch with the same advice
    await assert.rejects(teacher.score([1, 2], [3], { topK: 5 }), /distill_topk: 0/);
  } finally {
    await done();
  }
});
