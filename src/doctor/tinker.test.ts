import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../config/index.ts';
import { startFakeTinker } from '../../test/support/fake-tinker.ts';
import { startEmbeddedTinker } from '../../test/support/embedded-tinker.ts';
import { qwen3TokenizerDir } from '../../test/support/qwen3-fixture.ts';
import { formatDoctorTable, runDoctor } from './index.ts';
import { tempDir } from '../../test/support/temp.ts';

function config(
  url: string,
  over: Record<string, unknown> = {},
  tokenizer: string | null = qwen3TokenizerDir(),
  baseModel = 'Qwen/Qwen3-8B',
) {
  return parseConfig(
    {
      output_dir: tempDir('ocrl-doc-'),
      rollout: { provider: 'tinker', temperature: 1, tokenizer: tokenizer ?? undefined },
      tinker: { base_url: url, base_model: baseModel, ...over },
    },
    { env: {} },
  );
}

test('doctor --train on a working Tinker server: reachable, key, base model, tokenizer, 1-token sample, create model', async () => {
  const fake = await startFakeTinker({ apiKey: 'tml-ok' });
  try {
    const rows = await runDoctor(config(fake.url, { api_key: 'tml-ok' }), 20_000, { train: true });
    const tinker = rows.filter((r) => r.channel === 'tinker');
    assert.deepEqual(
      tinker.map((r) => [r.result.split(':')[0], r.ok]),
      [
        ['reachable', true],
        ['key accepted', true],
        ['base model', true],
        ['server profile', true],
        ['tokenizer', true],
        ['1-token sample', true],
        ['create model', true],
      ],
      formatDoctorTable(rows),
    );
    // the probe model is unloaded again (it would hold a LoRA slot on SkyRL)
    assert.equal(fake.requests.find((r) => r.path === '/unload_model')?.body.model_id, 'model-1');
    // the sample's prompt is a chat rendered with rollout.tokenizer (Qwen3's template)
    assert.ok(fake.requests.find((r) => r.path === '/asample')!.body.prompt.chunks[0].tokens.length > 5, 'a rendered chat prompt');
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

test('doctor --train against the embedded Tinker server with its checkpoint as rollout.tokenizer: every check passes', async () => {
  const tinker = await startEmbeddedTinker({ ctx: 64 });
  try {
    const rows = await runDoctor(config(tinker.url, {}, tinker.checkpoint, tinker.baseModel), 10_000, { train: true });
    assert.deepEqual(
      rows.filter((r) => !r.ok),
      [],
      formatDoctorTable(rows),
    );
    assert.match(formatDoctorTable(rows), /PASS tokenizer: .* \(embedded checkpoint\): a 1-message chat is \d+ tokens/);
    assert.match(formatDoctorTable(rows), /PASS create model: full fine-tuning \(this server has no LoRA\)/);
  } finally {
    await tinker.close();
  }
});

test('doctor: a tokenizer of another model (or none) is explained against the embedded Tinker server', async () => {
  const tinker = await startEmbeddedTinker({ ctx: 64 });
  try {
    // Qwen3's ids are far outside the tiny vocabulary: the sample is refused, naming the ids.
    const rows = await runDoctor(config(tinker.url, {}, qwen3TokenizerDir(), tinker.baseModel), 10_000);
    const sample = rows.find((r) => r.result.startsWith('1-token sample'))!;
    assert.equal(sample.ok, false, formatDoctorTable(rows));
    assert.match(sample.fix, /outside the model's vocabulary.*rollout\.tokenizer must be tiny-embedded's own tokenizer/);
    const none = await runDoctor(config(tinker.url, {}, null, tinker.baseModel), 10_000);
    const tok = none.find((r) => r.result.startsWith('tokenizer'))!;
    assert.equal(tok.ok, false);
    assert.match(tok.fix, /rollout\.tokenizer is not set/);
  } finally {
    await tinker.close();
  }
});
