import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../config/index.ts';
import { privacyRows } from './privacy.ts';

const rows = (tree: Record<string, unknown>) =>
  privacyRows(parseConfig(tree, { env: {}, overrides: { output_dir: '/tmp/ocrl-doctor-privacy' } })).map((r) => `${r.model}: ${r.result}`);

test('doctor says which channel reads conversations unredacted', () => {
  assert.deepEqual(rows({}), [
    'judge: reads turns in this process: unredacted, nothing leaves',
    'teacher: on this machine: reads hinted prompts unredacted',
  ]);
  const remote = {
    judge: { provider: 'openai_compatible', base_url: 'https://judge.example.org/v1', model_id: 'j' },
    teacher: { provider: 'openai_compatible', base_url: 'https://teacher.example.org', logprob_api: 'sglang' },
    rollout: { provider: 'tinker', temperature: 1 },
    tinker: { base_url: 'https://tinker.example.org', base_model: 'Qwen/Qwen3-8B' },
  };
  assert.deepEqual(rows(remote), [
    'judge: remote: reads turns with secrets and personal data replaced by placeholders',
    'teacher: remote: reads hinted prompts with secrets and personal data replaced by placeholders',
    'tinker: hosted trainer: gets samples as token ids; those whose prompt holds a secret are dropped (secret_in_sample)',
  ]);
  assert.match(
    rows({ ...remote, privacy: { mode: 'off', hosted_trainer: 'allow' } }).join('\n'),
    /UNREDACTED \(privacy\.mode: off\)[\s\S]*secrets included/,
  );
  assert.match(rows({ ...remote, privacy: { local_hosts: ['judge.example.org'] } })[0], /on a local host/);
  assert.match(rows({ ...remote, privacy: { mode: 'strict' } }).join('\n'), /^samples: .*personal_in_sample/m);
});
