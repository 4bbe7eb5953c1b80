import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../config/index.ts';
import { startFakeTinker } from '../../test/support/fake-tinker.ts';
import { formatDoctorTable, runDoctor } from './index.ts';

function config(url: string, over: Record<string, unknown> = {}) {
  return parseConfig(
    { output_dir: mkdtempSync(join(tmpdir(), 'ocrl-doc-')), rollout: { provider: 'tinker', temperature: 1 }, tinker: { base_url: url, base_model: 'Qwen/Qwen3-8B', ...over } },
    { env: {} },
  );
}

test('doctor --train on a working Tinker server: reachable, key, base model, 1-token sample, create model', async () => {
  const fake = await startFakeTinker({ apiKey: 'tml-ok' });
  try {
    const rows = await runDoctor(config(fake.url, { api_key: 'tml-ok' }), 5000, { train: true });
    const tinker = rows.filter((r) => r.channel === 'tinker');
    assert.deepEqual(tinker.map((r) => [r.result.split(':')[0], r.ok]), [['reachable', true], ['key accepted', true], ['base model', true], ['1-token sample', true], ['create model', true]]);
    assert.ok(!rows.some((r) => r.channel === 'rollout'), 'the Tinker rollout is not checked as an OpenAI channel');
    const create = fake.requests.find((r) => r.path === '/create_model')!.body;
    assert.equal(create.lora_config.rank, 32);
    assert.match(formatDoctorTable(rows), /PASS create model/);
    assert.doesNotMatch(formatDoctorTable(rows), /tml-ok/);
  } finally {
    await fake.close();
  }
});

test('doctor: a bad key is explained and later checks are skipped; without --train no model is created', async () => {
  const fake = await startFakeTinker({ apiKey: 'tml-ok' });
  try {
    const rows = await runDoctor(config(fake.url, { api_key: 'tml-bad' }), 5000);
    const bad = rows.find((r) => !r.ok)!;
    assert.match(bad.result, /key accepted: 401/);
    assert.match(bad.fix, /TINKER_API_KEY/);
    assert.equal(rows.filter((r) => r.channel === 'tinker').length, 2);
    assert.ok(!fake.paths().includes('/create_model'));
  } finally {
    await fake.close();
  }
});

test('doctor: a base model the server does not offer names the ones it does', async () => {
  const fake = await startFakeTinker({ models: ['Qwen/Qwen3-4B', 'meta-llama/Llama-3.1-8B'] });
  try {
    const rows = await runDoctor(config(fake.url), 5000);
    const row = rows.find((r) => r.result.startsWith('base model'))!;
    assert.equal(row.ok, false);
    assert.match(row.fix, /Qwen\/Qwen3-4B, meta-llama\/Llama-3.1-8B/);
  } finally {
    await fake.close();
  }
});
