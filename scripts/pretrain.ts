// `npm run pretrain`: builds the embedded engine's base checkpoint (checkpoints/base/) from the
// synthetic style corpus and measures its base style rates. Same seed → same checkpoint.
//   npm run pretrain -- --steps 50 --out tmp/base-test      (a quick trial)
//   npm run pretrain -- --minority-rate lowercase=0.14 --out tmp/base-lc   (one corpus knob changed)
//   npm run pretrain -- --init checkpoints/base --steps 300 --lr 5e-4 --minority-rate lowercase=0.05 --out tmp/base-cal
//                                                           (a short second phase from a checkpoint)
//   npm run pretrain -- --init checkpoints/base --steps 300 --paraphrase-rate 0.6 --out tmp/base-para
//                                                           (hints worded as paraphrases, 60% of them)
//   npm run pretrain -- --init checkpoints/base --steps 1500 --save-every 500 --out tmp/base-long
//                                                           (a longer phase, with the weights at steps 500, 1000)
//   npm run pretrain -- --rates-only                        (re-measure an existing checkpoint)
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { EmbeddedEngine } from '../src/engines/embedded/engine.ts';
import { STYLE_NAMES, type StyleName } from '../src/pretrain/styles.ts';
import { DEFAULT_PRETRAIN, formatBaseRates, measureBaseRates, runPretrain, type PretrainOptions } from '../src/pretrain/index.ts';

const d = DEFAULT_PRETRAIN;
const program = new Command('pretrain')
  .description('train the embedded base checkpoint on the synthetic style corpus')
  .option('--out <dir>', 'checkpoint folder', d.outDir)
  .option('--seed <n>', 'random seed', String(d.seed))
  .option('--steps <n>', 'training steps', String(d.steps))
  .option('--batch-size <n>', 'dialogues per step', String(d.batchSize))
  .option('--lr <x>', 'peak learning rate', String(d.lr))
  .option('--beta2 <x>', 'AdamW beta2', String(d.beta2))
  .option('--vocab <n>', 'tokenizer vocabulary size', String(d.vocabSize))
  .option('--d-model <n>', 'model width', String(d.model.dModel))
  .option('--layers <n>', 'transformer layers', String(d.model.nLayer))
  .option('--heads <n>', 'attention heads', String(d.model.nHead))
  .option('--ctx <n>', 'context length', String(d.model.ctx))
  .option('--minority-rate <list>', 'corpus minority rates to change, e.g. lowercase=0.14,terse=0.1')
  .option('--paraphrase-rate <x>', 'share of instructions worded as a training paraphrase (src/pretrain/paraphrases.ts)', '0')
  .option(
    '--paraphrase-noise <x>',
    'share of paraphrases with two style words joined by "and", and with style-neutral words around them',
    '0',
  )
  .option('--paraphrase-wider', 'training wordings from the wider frames and written lists too (src/pretrain/paraphrases.ts)')
  .option('--hint-rate <x>', 'share of single-turn dialogues whose user message carries a style instruction', '0.4')
  .option('--save-every <n>', 'also save the weights every N steps to <out>.stepN (0: only at the end)', '0')
  .option('--rate-samples <n>', 'unhinted answers sampled for the base rates (0 skips)', String(d.rateSamples))
  .option('--hint-samples <n>', 'answers per style instruction', String(d.hintSamples))
  .option('--init <dir>', 'continue from this checkpoint (weights, shape, tokenizer) instead of a fresh model')
  .option('--rates-only', 'only measure the base rates of the checkpoint in --out')
  .parse();

const o = program.opts<Record<string, string | boolean | undefined>>();
const num = (key: string): number => {
  const value = Number(o[key]);
  if (!Number.isFinite(value)) {
    console.error(`--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} must be a number, got ${String(o[key])}`);
    process.exit(2);
  }
  return value;
};
/** A probability option; out of [0, 1] exits 2 naming it. */
const rate = (key: string): number => {
  const value = num(key);
  if (value < 0 || value > 1) {
    console.error(`--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} must be in [0, 1], got ${value}`);
    process.exit(2);
  }
  return value;
};
/** `--minority-rate lowercase=0.14,terse=0.1` → the rates it names; a bad entry exits 2 naming it. */
function minorityRates(list: string | undefined): Partial<Record<StyleName, number>> {
  const rates: Partial<Record<StyleName, number>> = {};
  for (const entry of (list ?? '').split(',').filter((e) => e.trim() !== '')) {
    const [name, value] = entry.split('=').map((x) => x.trim());
    const rate = Number(value);
    if (!STYLE_NAMES.includes(name as StyleName) || value === undefined || !(rate >= 0 && rate <= 1)) {
      console.error(`--minority-rate: "${entry}" must be STYLE=RATE with STYLE one of ${STYLE_NAMES.join(', ')} and RATE in [0, 1]`);
      process.exit(2);
    }
    rates[name as StyleName] = rate;
  }
  return rates;
}

const opts: PretrainOptions = {
  ...d,
  outDir: String(o.out),
  seed: num('seed'),
  steps: num('steps'),
  batchSize: num('batchSize'),
  lr: num('lr'),
  beta2: num('beta2'),
  vocabSize: num('vocab'),
  model: { dModel: num('dModel'), nLayer: num('layers'), nHead: num('heads'), ctx: num('ctx') },
  corpus: {
    minorityRate: minorityRates(o.minorityRate as string | undefined),
    paraphraseRate: rate('paraphraseRate'),
    hintRate: rate('hintRate'),
    paraphraseNoise: rate('paraphraseNoise'),
  },
  saveEvery: num('saveEvery'),
  rateSamples: num('rateSamples'),
  hintSamples: num('hintSamples'),
  init: o.init as string | undefined,
};

if (o.ratesOnly === true) {
  const engine = await EmbeddedEngine.load(opts.outDir, { keepReference: false });
  if (engine.tokenizer === null) throw new Error(`${opts.outDir} has no tokenizer.json`);
  const rates = await measureBaseRates(engine, engine.tokenizer, {
    samples: opts.rateSamples,
    hintSamples: opts.hintSamples,
    seed: opts.seed,
  });
  await engine.close();
  await writeFile(join(opts.outDir, 'base_rates.json'), `${JSON.stringify(rates, null, 2)}\n`);
  console.log(formatBaseRates(rates));
} else {
  const t0 = performance.now();
  const result = await runPretrain(opts);
  console.log(
    `done in ${((performance.now() - t0) / 1000).toFixed(0)} s: eval loss ${result.firstLoss.toFixed(3)} → ${result.finalEvalLoss.toFixed(3)}, ${result.tokensPerSecond.toFixed(0)} train tokens/s`,
  );
}
