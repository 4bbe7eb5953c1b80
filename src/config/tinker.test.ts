import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, parseConfig } from './index.ts';
import { OpenClawError } from '../errors/index.ts';

const tinkerPolicy = { rollout: { provider: 'tinker', temperature: 1 }, tinker: { base_model: 'Qwen/Qwen3-8B' } };

function configError(raw: unknown): string {
  try {
    parseConfig(raw, { env: {} });
  } catch (err) {
    assert.ok(err instanceof OpenClawError && err.kind === 'config', String(err));
    return err.message;
  }
  assert.fail('expected a config error');
}

test('a Tinker policy config loads with defaults (LoRA 32, resume auto)', () => {
  const c = parseConfig(tinkerPolicy, { env: {} });
  assert.equal(c.rollout.provider, 'tinker');
  assert.equal(c.tinker.lora_rank, 32);
  assert.equal(c.tinker.resume, 'auto');
  assert.equal(c.tinker.base_url, undefined);
});

test('rollout.provider tinker refuses the terms its ppo loss lacks, naming the key', () => {
  assert.match(configError({ ...tinkerPolicy, training: { kl_coef: 0.01 } }), /training\.kl_coef.*no KL term/);
  assert.match(configError({ ...tinkerPolicy, training: { entropy_coef: 0.01 } }), /training\.entropy_coef/);
  assert.match(configError({ ...tinkerPolicy, scoring: { distill_topk: 5 } }), /scoring\.distill_topk/);
});

test('rollout.temperature must be 1 with Tinker, and the error says why', () => {
  const msg = configError({ ...tinkerPolicy, rollout: { provider: 'tinker', temperature: 0.8 } });
  assert.match(msg, /rollout\.temperature/);
  assert.match(msg, /temperature 1/);
  assert.match(msg, /ratio 1 on-policy/);
});

test('tinker.base_model is required by the Tinker policy and the Tinker teacher', () => {
  assert.match(
    configError({ rollout: { provider: 'tinker', temperature: 1 } }),
    /tinker\.base_model.*required when rollout\.provider is tinker/,
  );
  assert.match(configError({ teacher: { logprob_api: 'tinker' } }), /tinker\.base_model.*teacher\.logprob_api/);
  assert.match(
    configError({ teacher: { logprob_api: 'tinker', provider: 'openai_compatible', base_url: 'http://x:1' }, tinker: { base_model: 'b' } }),
    /teacher\.provider/,
  );
});

test('unknown keys under tinker: stay errors', () => {
  assert.match(configError({ ...tinkerPolicy, tinker: { base_model: 'b', lora_rnak: 8 } }), /lora_rnak/);
});

test('configs/tinker.yaml and configs/skyrl.yaml load', () => {
  const env = { TINKER_API_KEY: 'tml-x' };
  const hosted = loadConfig('configs/tinker.yaml', { env });
  assert.equal(hosted.tinker.base_model, 'Qwen/Qwen3-8B');
  assert.equal(hosted.tinker.base_url, 'https://tinker.thinkingmachines.dev/services/tinker-prod');
  assert.equal(hosted.teacher.logprob_api, 'tinker');
  const skyrl = loadConfig('configs/skyrl.yaml', { env: {} });
  assert.equal(skyrl.tinker.base_url, 'http://localhost:8000');
  assert.equal(skyrl.rollout.provider, 'tinker');
});

test('tinker.api_key is redacted when the config is printed', async () => {
  const { redact } = await import('./index.ts');
  const c = parseConfig({ ...tinkerPolicy, tinker: { base_model: 'b', api_key: 'tml-secret' } }, { env: {} });
  assert.equal(redact(c).tinker.api_key, '***');
  assert.doesNotMatch(JSON.stringify(redact(c)), /tml-secret/);
});
