// `npm run pretrain:base` runs the committed checkpoint's recipe: phase k+1 continues from phase
// k's weights and tokenizer, only the last phase is kept and measured, and the recipe the docs
// print is the one the code runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCheckpoint } from '../../src/engines/embedded/checkpoint.ts';
import { BASE_RECIPE, DEFAULT_PRETRAIN, phaseArgs, runRecipe } from '../../src/pretrain/index.ts';
import { tempDir } from '../support/temp.ts';

test('runRecipe: phases chained through --init, intermediate folders removed, the last phase is the checkpoint', async () => {
  const outDir = join(tempDir('ocrl-recipe-'), 'base');
  const lines: string[] = [];
  const result = await runRecipe(
    [
      { name: 'one', steps: 2, lr: 1e-3 },
      { name: 'two', steps: 3, lr: 5e-4, corpus: { paraphraseRate: 0.5, hintRate: 0.9 } },
    ],
    {
      ...DEFAULT_PRETRAIN,
      outDir,
      vocabSize: 300,
      tokenizerDialogues: 20,
      model: { dModel: 16, nLayer: 1, nHead: 2, ctx: 512 },
      batchSize: 2,
      evalDialogues: 2,
      rateSamples: 0,
    },
    (l) => lines.push(l),
  );
  const phaseLines = lines.filter((l) => l.startsWith('phase '));
  assert.deepEqual(phaseLines, [
    `phase 1/2 (one): npm run pretrain -- --steps 2 --lr 0.001 --out ${outDir}.phase1`,
    `phase 2/2 (two): npm run pretrain -- --init ${outDir}.phase1 --steps 3 --lr 0.0005 --paraphrase-rate 0.5 --hint-rate 0.9 --out ${outDir}`,
  ]);
  assert.ok(lines.some((l) => l === `continuing from ${outDir}.phase1 (its weights and tokenizer)`));
  assert.ok(lines.some((l) => l.startsWith('step    3/3')));
  assert.equal(existsSync(`${outDir}.phase1`), false, 'the intermediate phase is removed');
  const ckpt = await readCheckpoint(outDir);
  assert.equal(ckpt.config.model.dModel, 16);
  assert.equal(ckpt.config.model.vocabSize, 300);
  assert.equal(result.rates, null);
});

test('docs/embedded-engine.md spells out every phase of the base recipe as the code runs it', () => {
  const doc = readFileSync(new URL('../../docs/embedded-engine.md', import.meta.url), 'utf8');
  let init: string | null = null;
  for (const phase of BASE_RECIPE) {
    const cmd = `npm run pretrain -- ${phaseArgs(phase, init, 'checkpoints/base')}`;
    assert.ok(doc.includes(cmd), `docs/embedded-engine.md lacks: ${cmd}`);
    init = 'checkpoints/base';
  }
  assert.ok(doc.includes('npm run pretrain:base'));
});
