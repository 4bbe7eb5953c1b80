// The step buffer behind the charts: bounded, restarts with a new run, and seeded from a
// metrics.jsonl that may end in a line cut by a crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StepBuffer, readStepsFile } from './steps.ts';
import { tempDir } from '../../test/support/temp.ts';

const steps = (b: StepBuffer, since = 0, limit = 1000) => b.since(since, limit).map((p) => p.step);

test('keeps the newest `capacity` steps and answers `since` queries in order', () => {
  const b = new StepBuffer(3);
  for (let n = 1; n <= 10; n++) b.push({ step: n });
  assert.deepEqual(steps(b), [8, 9, 10]);
  assert.deepEqual(steps(b, 8), [9, 10]);
  assert.deepEqual(steps(b, 10), []);
  assert.deepEqual(steps(b, 0, 1), [10]);
  assert.equal(b.latest()?.step, 10);
});

test('a step number that does not grow starts a new run', () => {
  const b = new StepBuffer();
  for (const n of [1, 2, 3]) b.push({ step: n, reward_mean: n });
  b.push({ step: 1, reward_mean: -1 });
  assert.deepEqual(b.since(0, 10), [{ step: 1, reward_mean: -1 }]);
});

test('readStepsFile: the last run of the file, bad lines skipped, missing file empty', () => {
  const dir = tempDir('dash-steps-');
  const path = join(dir, 'metrics.jsonl');
  const lines = [
    { time: 't', step: 1, reward_mean: 0 },
    { step: 2 }, // first run
    { step: 1, reward_mean: 0.5 },
    { step: 2, reward_mean: 0.75 },
    { step: 3 }, // second run
  ].map((o) => JSON.stringify(o));
  writeFileSync(path, [lines[0], lines[1], 'not json', lines[2], '[1,2]', lines[3], lines[4], '{"step": 4, "rew'].join('\n'));
  assert.deepEqual(
    readStepsFile(path).map((p) => [p.step, p.reward_mean]),
    [
      [1, 0.5],
      [2, 0.75],
      [3, undefined],
    ],
  );
  assert.deepEqual(
    readStepsFile(path, 2).map((p) => p.step),
    [2, 3],
  );
  // A tail read that starts inside the step-2 line drops that partial line.
  const tailBytes = 5 + 1 + lines[4].length + 1 + '{"step": 4, "rew'.length;
  assert.deepEqual(
    readStepsFile(path, 10, tailBytes).map((p) => p.step),
    [3],
  );
  assert.deepEqual(readStepsFile(join(dir, 'absent.jsonl')), []);
});
