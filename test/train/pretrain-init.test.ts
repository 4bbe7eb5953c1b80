// `npm run pretrain -- --init DIR`: a second phase continues from a checkpoint — same model shape
// and tokenizer, weights moved on from the checkpoint's, not from a fresh initialisation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readCheckpoint } from '../../src/engines/embedded/checkpoint.ts';
import { DEFAULT_PRETRAIN, runPretrain } from '../../src/pretrain/index.ts';
import { tinyCheckpoint } from '../support/tiny-checkpoint.ts';
import { tempDir } from '../support/temp.ts';

test("pretrain with init: the checkpoint's shape and tokenizer, its weights trained further", async () => {
  const init = await tinyCheckpoint(1024);
  // Inside a temp folder: --save-every writes `<outDir>.step<N>` beside it.
  const outDir = join(tempDir('ocrl-pretrain-init-'), 'base');
  const lines: string[] = [];
  const result = await runPretrain(
    {
      ...DEFAULT_PRETRAIN,
      outDir,
      init,
      steps: 2,
      batchSize: 2,
      evalDialogues: 2,
      rateSamples: 0,
      saveEvery: 1,
      corpus: { minorityRate: { lowercase: 0.05 } },
    },
    (l) => lines.push(l),
  );
  const before = await readCheckpoint(init);
  const after = await readCheckpoint(outDir);
  assert.deepEqual(after.config.model, before.config.model, "the model shape is the checkpoint's, not the defaults");
  assert.deepEqual(after.tokenizer, before.tokenizer, 'the tokenizer is kept: token ids mean what they meant');
  assert.equal(result.firstLoss > 0 && result.firstLoss < Math.log(before.config.model.vocabSize) + 1, true);
  const moved = Object.keys(before.weights).filter((k) => before.weights[k].data.some((v, i) => v !== after.weights[k].data[i]));
  assert.ok(moved.length > Object.keys(before.weights).length / 2, `weights trained further: ${moved.length} tensors changed`);
  assert.ok(lines.some((l) => l.includes(`continuing from ${init}`)));
  // --save-every 1: the weights after step 1 sit beside the output, between the init's and the final ones.
  const mid = await readCheckpoint(`${outDir}.step1`);
  assert.deepEqual(mid.tokenizer, before.tokenizer);
  const differs = (a: typeof before, b: typeof before) =>
    Object.keys(a.weights).some((k) => a.weights[k].data.some((v, i) => v !== b.weights[k].data[i]));
  assert.ok(differs(mid, before) && differs(mid, after), 'step 1 weights differ from the init and from step 2');
  assert.equal(existsSync(`${outDir}.step2`), false, 'the last step is the output itself');
  assert.ok(
    lines.some((l) => l.includes('"lowercase":0.05')),
    'the changed corpus rate is in the log',
  );
});
