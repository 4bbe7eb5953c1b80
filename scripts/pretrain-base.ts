// `npm run pretrain:base`: rebuilds checkpoints/base from scratch by running every phase of its
// recipe (src/pretrain/recipe.ts) and measures its base rates (about an hour on one core).
//   npm run pretrain:base                          (→ checkpoints/base)
//   npm run pretrain:base -- --out tmp/base        (anywhere else)
import { Command } from 'commander';
import { BASE_RECIPE, DEFAULT_PRETRAIN, runRecipe } from '../src/pretrain/index.ts';

const o = new Command('pretrain:base')
  .description('rebuild the base checkpoint: every phase of its recipe, then the base rates')
  .option('--out <dir>', 'checkpoint folder', DEFAULT_PRETRAIN.outDir)
  .parse()
  .opts<{ out: string }>();
const t0 = performance.now();
const result = await runRecipe(BASE_RECIPE, { ...DEFAULT_PRETRAIN, outDir: o.out });
console.log(`done in ${((performance.now() - t0) / 1000).toFixed(0)} s: eval loss ${result.finalEvalLoss.toFixed(3)}`);
