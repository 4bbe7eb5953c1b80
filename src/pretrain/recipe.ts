// The committed base checkpoint's recipe: the phases `npm run pretrain:base` runs one after the
// other, each continuing from the previous phase's weights and tokenizer. Each phase is what
// differs from DEFAULT_PRETRAIN; the reasons are in docs/embedded-engine.md.

import { rm } from 'node:fs/promises';
import type { CorpusOptions } from './corpus.ts';
import { DEFAULT_PRETRAIN, runPretrain, type PretrainOptions, type PretrainResult } from './run.ts';

/** One phase: its steps, peak learning rate and corpus knobs. */
export interface PretrainPhase {
  name: string;
  steps: number;
  lr: number;
  corpus?: CorpusOptions;
}

/** What the paraphrase phases share: more hinted dialogues, lowercase a little rarer than phase 1's 20%. */
const PARAPHRASED: CorpusOptions = { minorityRate: { lowercase: 0.08 }, paraphraseRate: 0.7, hintRate: 0.6 };

/** The phases of checkpoints/base (seed 1234). */
export const BASE_RECIPE: readonly PretrainPhase[] = [
  { name: 'styles', steps: 2000, lr: 5e-3 },
  { name: 'calibrate lowercase', steps: 300, lr: 1e-3, corpus: { minorityRate: { lowercase: 0.05 } } },
  { name: 'paraphrased hints', steps: 1500, lr: 2e-3, corpus: { ...PARAPHRASED, paraphraseRate: 0.7 } },
  { name: 'noisy paraphrases', steps: 1000, lr: 1e-3, corpus: { ...PARAPHRASED, paraphraseNoise: 0.3 } },
  { name: 'wider paraphrases', steps: 1000, lr: 1e-3, corpus: { ...PARAPHRASED, paraphraseNoise: 0.3, paraphraseWider: true } },
];

/** The `npm run pretrain` arguments of a phase (the recipe as a user would type it). */
export function phaseArgs(phase: PretrainPhase, init: string | null, out: string): string {
  const c = phase.corpus ?? {};
  const args = [init === null ? '' : `--init ${init}`, `--steps ${phase.steps}`, `--lr ${phase.lr}`];
  const rates = Object.entries(c.minorityRate ?? {}).map(([k, v]) => `${k}=${v}`);
  if (rates.length > 0) args.push(`--minority-rate ${rates.join(',')}`);
  if (c.paraphraseRate) args.push(`--paraphrase-rate ${c.paraphraseRate}`);
  if (c.paraphraseNoise) args.push(`--paraphrase-noise ${c.paraphraseNoise}`);
  if (c.paraphraseWider) args.push('--paraphrase-wider');
  if (c.hintRate !== undefined) args.push(`--hint-rate ${c.hintRate}`);
  return [...args, `--out ${out}`].filter((a) => a !== '').join(' ');
}

/**
 * Runs `phases` into `outDir`: phase k writes `<outDir>.phase<k>` (removed once the next phase
 * has read it) and the last writes `outDir`; only the last measures the base rates.
 */
export async function runRecipe(
  phases: readonly PretrainPhase[],
  base: Omit<PretrainOptions, 'steps' | 'lr' | 'corpus' | 'init'> = DEFAULT_PRETRAIN,
  log: (line: string) => void = console.log,
): Promise<PretrainResult> {
  let init: string | null = null;
  let result: PretrainResult | null = null;
  for (const [i, phase] of phases.entries()) {
    const last = i === phases.length - 1;
    const out = last ? base.outDir : `${base.outDir}.phase${i + 1}`;
    log(`phase ${i + 1}/${phases.length} (${phase.name}): npm run pretrain -- ${phaseArgs(phase, init, out)}`);
    result = await runPretrain(
      {
        ...base,
        outDir: out,
        steps: phase.steps,
        lr: phase.lr,
        corpus: phase.corpus,
        init: init ?? undefined,
        rateSamples: last ? base.rateSamples : 0,
      },
      log,
    );
    if (init !== null) await rm(init, { recursive: true, force: true });
    init = out;
  }
  if (result === null) throw new Error('runRecipe: no phases');
  return result;
}
