import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../config/index.ts';
import type { PolicyEngine } from '../../engines/types.ts';
import { TeacherSchema } from '../../config/schema.ts';
import { createTeacher, teacherLogprobTemperature } from './from-config.ts';
import { TEACHER_PROVIDERS } from './providers.ts';

const cfg = (overrides: Record<string, unknown>) => parseConfig({}, { env: {}, overrides });
const engine = { kind: 'fake', score: async () => ({ logprobs: [] }) } as unknown as PolicyEngine;

test('teacherLogprobTemperature says what the teacher createTeacher builds reports', async () => {
  const cases: Array<[Record<string, unknown>, number, PolicyEngine | undefined]> = [
    [{ 'rollout.temperature': 0.8 }, 0.8, engine],
    [{ 'rollout.temperature': 0 }, 1, engine],
    [
      {
        'rollout.temperature': 0.8,
        'teacher.provider': 'openai_compatible',
        'teacher.logprob_api': 'sglang',
        'teacher.base_url': 'http://127.0.0.1:9',
      },
      1,
      undefined,
    ],
    [
      {
        'rollout.temperature': 0.6,
        'teacher.provider': 'openai_compatible',
        'teacher.logprob_api': 'vllm',
        'teacher.base_url': 'http://127.0.0.1:9',
      },
      1,
      undefined,
    ],
  ];
  for (const [overrides, want, eng] of cases) {
    const config = cfg(overrides);
    const teacher = createTeacher(config, { engine: eng });
    assert.ok(teacher);
    assert.equal(teacher.logprobTemperature, want, JSON.stringify(overrides));
    assert.equal(teacherLogprobTemperature(config), want, JSON.stringify(overrides));
    await teacher.close();
  }
});

test('TEACHER_PROVIDERS has a row for each teacher.provider the schema accepts; only the embedded one scores on the policy engine', () => {
  const accepted = TeacherSchema.shape.provider.removeDefault().options;
  assert.deepEqual(Object.keys(TEACHER_PROVIDERS).sort(), [...accepted].sort());
  assert.deepEqual(Object.fromEntries(Object.entries(TEACHER_PROVIDERS).map(([name, row]) => [name, row.onPolicyEngine])), {
    openai_compatible: false,
    embedded: true,
  });
});
