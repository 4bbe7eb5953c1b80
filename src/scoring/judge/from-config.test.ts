import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig, type Config } from '../../config/index.ts';
import { OpenClawError } from '../../errors/index.ts';
import { JudgeSchema } from '../../config/schema.ts';
import { createJudge, judgeHasModel, judgeModelCall } from './from-config.ts';
import { JUDGE_PROVIDERS } from './providers.ts';

test('judge.provider picks the judge; an unknown provider is a config error naming judge.provider', async () => {
  assert.equal(createJudge(parseConfig({}, { env: {} })).judge.provider, 'rules');
  const model = parseConfig({ judge: { provider: 'openai_compatible', base_url: 'http://127.0.0.1:9/v1', model_id: 'j' } }, { env: {} });
  const owned = createJudge(model, { call: async () => '\\boxed{1}' });
  assert.equal(owned.judge.provider, 'model');
  await owned.close();
  // The schema refuses it when the config is parsed …
  assert.throws(
    () => parseConfig({ judge: { provider: 'anthropic' } }, { env: {} }),
    (e: unknown) => e instanceof OpenClawError && e.kind === 'config' && /judge\.provider/.test(e.message),
  );
  // … and the factory when a config is built by hand: never silently the rules judge.
  const handMade = { ...model, judge: { ...model.judge, provider: 'anthropic' } } as unknown as Config;
  assert.throws(
    () => createJudge(handMade),
    (e: unknown) => e instanceof OpenClawError && e.kind === 'config' && e.param === 'judge.provider',
  );
});

test('JUDGE_PROVIDERS has a row for each judge.provider the schema accepts, and only those; a row with a model lends its call', async () => {
  const accepted = JudgeSchema.shape.provider.removeDefault().options;
  assert.deepEqual(Object.keys(JUDGE_PROVIDERS).sort(), [...accepted].sort());
  for (const name of accepted) {
    const config = parseConfig({ judge: { provider: name, base_url: 'http://127.0.0.1:9/v1', model_id: 'j' } }, { env: {} });
    const owned = createJudge(config, { call: async () => '\\boxed{1}' });
    await owned.close();
    const call = judgeModelCall(config, { connections: 1 });
    assert.equal(judgeHasModel(config), call !== undefined, name);
    await call?.close();
  }
  assert.equal(judgeHasModel(parseConfig({}, { env: {} })), false, 'the rules judge calls no model');
});
