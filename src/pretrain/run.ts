// The pretraining pipeline behind `npm run pretrain`: corpus → BPE tokenizer → fresh GPT (or the
// weights and tokenizer of `init`) → supervised steps (AdamW, warm-up + cosine decay) →
// checkpoint → base-rate measurement.
// The checkpoint holds weights, config and tokenizer only: no optimizer state and no reference,
// so an RL run starts with a fresh AdamW and takes these weights as its KL reference.

import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { initBackend } from '../engines/embedded/index.ts';
import { fromHost, readCheckpoint, toHost, writeCheckpoint } from '../engines/embedded/index.ts';
import { OpenClawError } from '../errors/index.ts';
import { EmbeddedEngine } from '../engines/embedded/index.ts';
import { Gpt, paramCount, type GptConfig } from '../engines/embedded/index.ts';
import { AdamW, DEFAULT_ADAMW } from '../engines/embedded/index.ts';
import { cosineLr, supervisedLoss, supervisedStep, type SupervisedExample } from '../engines/embedded/index.ts';
import { Rng } from '../rl/index.ts';
import { Tokenizer, trainBpe } from '../engines/embedded/index.ts';
import { formatBaseRates, measureBaseRates, type BaseRateReport } from './base-rates.ts';
import { generateCorpus, resolveCorpusOptions, type CorpusOptions } from './corpus.ts';
import { dialogueExample, tokenizerTexts } from './encode.ts';

/** Settings of a pretraining run. */
export interface PretrainOptions {
  outDir: string;
  seed: number;
  /** Vocabulary size of the BPE (bytes + merges + 3 special tokens). */
  vocabSize: number;
  model: Omit<GptConfig, 'vocabSize'>;
  steps: number;
  batchSize: number;
  lr: number;
  warmupSteps: number;
  /** Final lr as a share of the peak. */
  minLrRatio: number;
  weightDecay: number;
  maxGradNorm: number;
  /** AdamW second-moment decay (0.999 beat 0.95 in a 150-step comparison here). */
  beta2: number;
  /** Dialogues the BPE merges are learned from. */
  tokenizerDialogues: number;
  /** Held-out dialogues for the eval loss. */
  evalDialogues: number;
  evalEvery: number;
  /** Knobs of the synthetic corpus (defaults: DEFAULT_CORPUS). */
  corpus?: CorpusOptions;
  /** Base-rate sampling (0 skips the measurement). */
  rateSamples: number;
  hintSamples: number;
  /**
   * Continue from this checkpoint (its weights, model shape and tokenizer) instead of a fresh
   * model: a short second phase on a changed corpus re-calibrates how often each style shows up
   * without hints, without the hour of a full run.
   */
  init?: string;
  /** Also save the weights every this many steps, to `<outDir>.step<N>` (0 or absent: only at the end). */
  saveEvery?: number;
}

/** Defaults of `npm run pretrain` (about half an hour of training on one core). */
export const DEFAULT_PRETRAIN: PretrainOptions = {
  outDir: 'checkpoints/base',
  seed: 1234,
  vocabSize: 2048,
  model: { dModel: 96, nLayer: 3, nHead: 4, ctx: 512 },
  steps: 2000,
  batchSize: 16,
  lr: 5e-3,
  warmupSteps: 30,
  minLrRatio: 0.1,
  weightDecay: 0.05,
  maxGradNorm: 1,
  beta2: 0.999,
  tokenizerDialogues: 3000,
  evalDialogues: 64,
  evalEvery: 100,
  rateSamples: 200,
  hintSamples: 40,
};

/** What a run produced. */
export interface PretrainResult {
  config: GptConfig;
  params: number;
  trainDialogues: number;
  droppedTooLong: number;
  firstLoss: number;
  finalEvalLoss: number;
  trainSeconds: number;
  tokensPerSecond: number;
  rates: BaseRateReport | null;
}

/**
 * Batches of similar-length examples in a seeded random order: examples are sorted by length
 * within windows of 32 batches, which cuts padding without making batches all-short or all-long.
 */
export function lengthBuckets(examples: readonly SupervisedExample[], batchSize: number, seed: number): SupervisedExample[][] {
  const rng = new Rng(seed);
  const window = batchSize * 32;
  const batches: SupervisedExample[][] = [];
  const length = (e: SupervisedExample) => e.promptIds.length + e.targetIds.length;
  for (let w = 0; w < examples.length; w += window) {
    const sorted = examples.slice(w, w + window).sort((a, b) => length(a) - length(b));
    for (let i = 0; i + batchSize <= sorted.length; i += batchSize) batches.push(sorted.slice(i, i + batchSize));
  }
  for (let i = batches.length - 1; i > 0; i--) {
    const j = Math.floor(rng.uniform() * (i + 1));
    [batches[i], batches[j]] = [batches[j], batches[i]];
  }
  return batches;
}

function fits(e: SupervisedExample, ctx: number): boolean {
  return e.promptIds.length + e.targetIds.length - 1 <= ctx;
}

/** The model with its weights as trainable variables (the loaded one is freed). */
function trainableCopy(loaded: Gpt): Gpt {
  const model = loaded.clone(true);
  loaded.dispose();
  return model;
}

/** Writes weights + config + tokenizer (removing optimizer/reference files of an older save). */
async function saveBase(dir: string, model: Gpt, tokenizer: Tokenizer): Promise<void> {
  await rm(join(dir, 'optimizer.safetensors'), { force: true });
  await rm(join(dir, 'reference.safetensors'), { force: true });
  await writeCheckpoint(dir, {
    config: { format: 'openclaw-embedded', model: model.config, version: 0, adamw: DEFAULT_ADAMW },
    tokenizer: tokenizer.toJSON(),
    weights: toHost(model.params),
    optimizer: null,
    reference: null,
  });
}

/** Runs the whole pipeline; `log` receives progress lines. */
export async function runPretrain(opts: PretrainOptions, log: (line: string) => void = console.log): Promise<PretrainResult> {
  await initBackend();
  const t0 = performance.now();
  // 10% extra: length bucketing drops the last partial batch of each window.
  const corpus = generateCorpus(Math.ceil(opts.steps * opts.batchSize * 1.1), opts.seed, opts.corpus);
  const evalCorpus = generateCorpus(opts.evalDialogues, opts.seed + 1, opts.corpus);
  const init = opts.init === undefined ? null : await readCheckpoint(opts.init);
  if (init !== null && init.tokenizer === null)
    throw new OpenClawError('config', `--init ${opts.init}: the checkpoint has no tokenizer.json to continue with`);
  const tokenizer =
    init !== null
      ? Tokenizer.fromJSON(init.tokenizer!)
      : trainBpe(tokenizerTexts(corpus.slice(0, opts.tokenizerDialogues)), opts.vocabSize);
  const config: GptConfig = init !== null ? init.config.model : { vocabSize: tokenizer.vocabSize, ...opts.model };
  log(
    `corpus: ${corpus.length} dialogues (seed ${opts.seed}, minority rates ${JSON.stringify(resolveCorpusOptions(opts.corpus).minorityRate)}); tokenizer: ${tokenizer.vocabSize} tokens (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );

  const all = corpus.map((d) => dialogueExample(tokenizer, d));
  const examples = all.filter((e) => fits(e, config.ctx));
  const evalSet = evalCorpus.map((d) => dialogueExample(tokenizer, d)).filter((e) => fits(e, config.ctx));
  const meanLen = examples.reduce((s, e) => s + e.promptIds.length + e.targetIds.length, 0) / examples.length;
  log(
    `examples: ${examples.length} (dropped ${all.length - examples.length} longer than ctx ${config.ctx}); mean ${meanLen.toFixed(0)} tokens`,
  );

  const model = init !== null ? trainableCopy(new Gpt(config, fromHost(init.weights))) : Gpt.create(config, opts.seed);
  if (init !== null) log(`continuing from ${opts.init} (its weights and tokenizer)`);
  const optimizer = new AdamW({ beta2: opts.beta2 });
  log(
    `model: d=${config.dModel} layers=${config.nLayer} heads=${config.nHead} ctx=${config.ctx} vocab=${config.vocabSize}, ${paramCount(config).toLocaleString('en')} weights`,
  );
  const batches = lengthBuckets(examples, opts.batchSize, opts.seed + 2);
  // One divisor for every step, so a token of a short-answer batch weighs what a token of a
  // long-answer batch weighs (see engines/embedded/pretrain.ts).
  const tokenNormalizer = opts.batchSize * (examples.reduce((s, e) => s + e.targetIds.length, 0) / examples.length);
  const steps = Math.min(opts.steps, batches.length);
  const evalLoss = () => supervisedLoss(model, evalSet);
  const firstLoss = evalLoss();
  log(`eval loss before training: ${firstLoss.toFixed(3)} (uniform would be ${Math.log(config.vocabSize).toFixed(3)})`);
  const trainStart = performance.now();
  let seqTokens = 0;
  let smoothed = firstLoss;
  let finalEvalLoss = firstLoss;
  try {
    for (let step = 0; step < steps; step++) {
      const lr = cosineLr(step, steps, { peak: opts.lr, warmupSteps: opts.warmupSteps, minRatio: opts.minLrRatio });
      const out = supervisedStep(model, optimizer, batches[step], {
        lr,
        weightDecay: opts.weightDecay,
        maxGradNorm: opts.maxGradNorm,
        tokenNormalizer,
      });
      seqTokens += batches[step].reduce((s, e) => s + e.promptIds.length + e.targetIds.length - 1, 0);
      smoothed = 0.9 * smoothed + 0.1 * out.loss;
      const last = step === steps - 1;
      if ((step + 1) % 10 === 0 || last) {
        const elapsed = (performance.now() - trainStart) / 1000;
        const eta = (elapsed / (step + 1)) * (steps - step - 1);
        let line = `step ${String(step + 1).padStart(4)}/${steps} loss ${smoothed.toFixed(3)} lr ${lr.toExponential(2)} grad ${out.gradNorm.toFixed(2)} ${(seqTokens / elapsed).toFixed(0)} tok/s elapsed ${elapsed.toFixed(0)} s eta ${eta.toFixed(0)} s`;
        if ((step + 1) % opts.evalEvery === 0 || last) {
          finalEvalLoss = evalLoss();
          line += ` eval ${finalEvalLoss.toFixed(3)}`;
        }
        log(line);
      }
      if (opts.saveEvery && (step + 1) % opts.saveEvery === 0 && !last) {
        await saveBase(`${opts.outDir}.step${step + 1}`, model, tokenizer);
        log(`saved ${opts.outDir}.step${step + 1}`);
      }
    }
    const trainSeconds = (performance.now() - trainStart) / 1000;
    await saveBase(opts.outDir, model, tokenizer);
    log(`saved ${opts.outDir} (training ${trainSeconds.toFixed(0)} s)`);
    let rates: BaseRateReport | null = null;
    if (opts.rateSamples > 0) {
      const engine = await EmbeddedEngine.load(opts.outDir, { keepReference: false });
      try {
        rates = await measureBaseRates(engine, tokenizer, {
          samples: opts.rateSamples,
          hintSamples: opts.hintSamples,
          seed: opts.seed,
          onProgress: (done, total) => {
            if (done % 50 === 0 || done === total) log(`base rates: ${done}/${total} answers sampled`);
          },
        });
      } finally {
        await engine.close();
      }
      await writeFile(join(opts.outDir, 'base_rates.json'), `${JSON.stringify(rates, null, 2)}\n`);
      log(formatBaseRates(rates));
    }
    return {
      config,
      params: paramCount(config),
      trainDialogues: examples.length,
      droppedTooLong: all.length - examples.length,
      firstLoss,
      finalEvalLoss,
      trainSeconds,
      tokensPerSecond: seqTokens / trainSeconds,
      rates,
    };
  } finally {
    model.dispose();
    optimizer.dispose();
  }
}
