// GET /evaluation on the real server behind an API key: 401 in OpenAI's shape without the key, the
// per-version JSON with it (the same as the dashboard's /dashboard/api/evaluation), computed from
// what the sample store holds at the time of the request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../support/harness.ts';
import { makeSample } from '../support/sample-fixtures.ts';
import { assertOpenAIError } from '../gateway/expect.ts';

const KEY = 'sk-evaluation-key';
let h: Harness;
before(async () => {
  h = await startHarness({}, { apiKey: KEY });
});
after(async () => {
  await h.close();
});

const auth = { authorization: `Bearer ${KEY}` };

test('without the key: 401 in OpenAI shape, for /evaluation and the dashboard copy', async () => {
  for (const path of ['/evaluation', '/dashboard/api/evaluation']) {
    for (const headers of [{}, { authorization: 'Bearer sk-wrong' }] as Record<string, string>[]) {
      const res = await fetch(`${h.url}${path}`, { headers });
      assert.equal(res.status, 401, path);
      assertOpenAIError(await res.json(), { type: 'authentication_error', code: 'invalid_api_key', param: null });
    }
  }
});

test('with the key: one row per version, from what the store holds now', async () => {
  const empty = await fetch(`${h.url}/evaluation`, { headers: auth });
  assert.equal(empty.status, 200);
  assert.equal(empty.headers.get('cache-control'), 'no-store');
  const none = await empty.json();
  assert.deepEqual(none.versions, []);
  assert.equal(none.serving_policy_version, h.server.channel.version());

  h.server.store.addSample(makeSample('ev', 1, { policyVersion: 0, reward: 1, votes: [1] }));
  h.server.store.addSample(makeSample('ev', 2, { policyVersion: 0, reward: -1, votes: [-1] }));
  h.server.store.addSample(makeSample('ev', 3, { policyVersion: 1, type: 'opd+rl', reward: 1, votes: [1], hint: 'say it shorter' }));
  const body = await (await fetch(`${h.url}/evaluation`, { headers: auth })).json();
  assert.equal(body.object, 'evaluation');
  assert.deepEqual(body.intervals, { reward: 'student_t_95', rates: 'wilson_95' });
  assert.deepEqual(
    body.versions.map((v: any) => [v.policy_version, v.judged_turns, v.reward.mean, v.negative_rate.count, v.hint_rate.count]),
    [
      [0, 2, 0, 1, 0],
      [1, 1, 1, 0, 1],
    ],
  );
  const v0 = body.versions[0];
  assert.deepEqual(Object.keys(v0).sort(), [
    'dropped_samples',
    'dropped_turns',
    'first_sample_at',
    'hint_rate',
    'judged_turns',
    'last_sample_at',
    'negative_rate',
    'policy_version',
    'replay',
    'reward',
    'rewards',
    'sample_types',
    'samples',
    'unjudged_samples',
  ]);
  // n = 2, values ±1: mean 0, s = √2, half-width t(0.975, 1)·√2/√2 = 12.7 → clipped to [−1, 1].
  assert.deepEqual(v0.reward.ci95, { low: -1, high: 1 });
  assert.deepEqual(Object.keys(v0.negative_rate).sort(), ['ci95', 'count', 'n', 'rate']);

  const dash = await (await fetch(`${h.url}/dashboard/api/evaluation`, { headers: auth })).json();
  assert.deepEqual(dash.versions, body.versions);
});
