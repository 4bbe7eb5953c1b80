import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig, type Config } from '../config/index.ts';
import { RolloutSchema } from '../config/schema.ts';
import { OpenClawError } from '../errors/index.ts';
import { ROLLOUT_PROVIDERS, rolloutProvider } from './policy.ts';

test('ROLLOUT_PROVIDERS has a row for each rollout.provider the schema accepts; the ones that train name the engine kind checkpoints record', () => {
  const accepted = RolloutSchema.shape.provider.removeDefault().options;
  assert.deepEqual(Object.keys(ROLLOUT_PROVIDERS).sort(), [...accepted].sort());
  const kinds = Object.fromEntries(Object.entries(ROLLOUT_PROVIDERS).map(([name, row]) => [name, row.trainingKind]));
  assert.deepEqual(kinds, { openai_compatible: undefined, tinker: 'tinker', embedded: 'embedded' });
  assert.equal(rolloutProvider(parseConfig({}, { env: {} })).trainingKind, 'embedded');
  const handMade = { ...parseConfig({}, { env: {} }), rollout: { provider: 'llamacpp' } } as unknown as Config;
  assert.throws(
    () => rolloutProvider(handMade),
    (e: unknown) => e instanceof OpenClawError && e.kind === 'config' && e.param === 'rollout.provider',
  );
});
