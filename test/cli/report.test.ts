// `openclaw-rl report` and `rollback` on a run folder, as a user runs them. report: the table (or
// --json) from the sample store, read-only (a running trainer's lease stays untouched), and the
// exit codes of the CLI's one mapping: 2 for a folder without a store (naming the path), 1 for a
// file that is not a store. rollback: a stopped run's kept version becomes its newest checkpoint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SampleStore, SAMPLE_STORE_FILE } from '../../src/samples/index.ts';
import { makeSample } from '../support/sample-fixtures.ts';
import { newestCheckpoint, saveCheckpoint } from '../../src/trainer/index.ts';
import { tempDir } from '../support/temp.ts';
import { runCli } from '../support/cli.ts';

const cli = (args: string[]) => runCli(args);

test('report prints one row per policy version and leaves a running store as it was', async (t) => {
  const dir = tempDir('ocrl-report-');
  const store = SampleStore.open(join(dir, SAMPLE_STORE_FILE));
  t.after(() => store.close());
  store.addSample(makeSample('r', 1, { policyVersion: 0, reward: -1, votes: [-1] }));
  store.addSample(makeSample('r', 2, { policyVersion: 0, reward: -1, votes: [-1] }));
  store.addSample(makeSample('r', 3, { policyVersion: 0, reward: 1, votes: [1] }));
  store.addSample(makeSample('r', 4, { policyVersion: 1, reward: 1, votes: [1] }));
  store.addSample(makeSample('r', 5, { policyVersion: 1, type: 'opd+rl', reward: 1, votes: [1], hint: 'keep it short' }));
  const lease = store.leaseBatch(2); // this process plays the running trainer

  const r = await cli(['report', '--output-dir', dir]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.match(lines[0], /^\| version \| judged \| reward mean \[95% CI\] \|/);
  // v0: −1, −1, +1 → mean −1/3, s = 1.1547, t(0.975, 2) = 4.3027 → clipped to [−1, 1];
  // −1 rate 2/3, Wilson [0.208, 0.939].
  assert.equal(lines[2], '| 0 | 3 | -0.333 [-1.00, 1.00] | 0.67 (2) [0.21, 0.94] | 0.00 (0) [0.00, 0.56] | 3 (3/0/0) | 0 | – |');
  assert.equal(lines[3], '| 1 | 2 | 1.000 [1.00, 1.00] | 0.00 (0) [0.00, 0.66] | 0.50 (1) [0.09, 0.91] | 2 (1/0/1) | 0 | – |');
  assert.equal(r.stderr, '');
  assert.equal(store.counts().leased, 2, 'the report returned no lease');
  assert.equal(store.markTrained(lease.leaseId), 2);

  const json = await cli(['report', '--output-dir', dir, '--json']);
  assert.equal(json.code, 0, json.stderr);
  const body = JSON.parse(json.stdout);
  assert.equal(body.object, 'evaluation');
  assert.deepEqual(
    body.versions.map((v: { policy_version: number; judged_turns: number }) => [v.policy_version, v.judged_turns]),
    [
      [0, 3],
      [1, 2],
    ],
  );
});

test('report without a store exits 2 and names the path; a file that is not a store exits 1', async () => {
  const dir = tempDir('ocrl-report-');
  const missing = await cli(['report', '--output-dir', dir]);
  assert.equal(missing.code, 2);
  assert.equal(missing.stdout, '');
  assert.ok(missing.stderr.includes(`no sample store at ${join(dir, SAMPLE_STORE_FILE)}`), missing.stderr);

  writeFileSync(join(dir, SAMPLE_STORE_FILE), 'not sqlite at all, just text that is long enough to be read as a header.......');
  const bad = await cli(['report', '--output-dir', dir]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /cannot read sample store .*samples\.sqlite/);
});

test('rollback on a stopped run writes the kept version as the newest checkpoint; bad input exits 2', async () => {
  const dir = tempDir('ocrl-rollback-cli-');
  const store = SampleStore.open(join(dir, SAMPLE_STORE_FILE));
  store.addSample(makeSample('r', 1, { policyVersion: 4 }));
  store.close();
  for (const [step, version] of [
    [1, 1],
    [2, 4],
  ]) {
    await saveCheckpoint(dir, { step, policy_version: version, engine: 'embedded' }, async (d) =>
      writeFileSync(join(d, 'model.safetensors'), `v${version}`),
    );
  }
  const r = await cli(['rollback', '--to', '1', '--output-dir', dir]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.policy_version, 5, 'above every version seen: a new number');
  assert.equal(newestCheckpoint(dir)?.dir, out.checkpoint);
  assert.equal(readFileSync(join(out.checkpoint, 'model.safetensors'), 'utf8'), 'v1', "the kept version's state");
  assert.match(r.stderr, /serves the weights of version 1 as policy version 5/);

  const unknown = await cli(['rollback', '--to', '3', '--output-dir', dir]);
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /kept versions: 1, 4/);
  assert.equal((await cli(['rollback', '--to', 'abc', '--output-dir', dir])).code, 2);
  const nowhere = await cli(['rollback', '--to', '1', '--output-dir', join(dir, 'typo')]);
  assert.equal(nowhere.code, 2);
  assert.match(nowhere.stderr, /no sample store at .*typo/);
});
