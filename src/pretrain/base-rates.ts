// Measures what a checkpoint does before any RL: how often each style shows up in answers to
// held-out prompts (no hint), and how often the model follows each style instruction given in
// the OPD hint format. Personas need low base ratings (minority styles rare) and hints that
// work (the teacher = model + hint must prefer the asked style), so both are checked here.

import type { PolicyEngine } from '../engines/types.ts';
import type { Tokenizer } from '../engines/embedded/index.ts';
import { heldOutPrompts, withHint } from './corpus.ts';
import { promptIds } from './encode.ts';
import { STYLE_INSTRUCTIONS } from './instructions.ts';
import { MINORITY_PARAPHRASES } from './paraphrases.ts';
import { MINORITY, STYLE_NAMES, detectStyles, hasMinorityStyle, type StyleName } from './styles.ts';

/** Sampling settings of the measurement. */
export interface BaseRateOptions {
  /** Unhinted answers to sample (default 200). */
  samples?: number;
  /** Answers per style instruction (default 40). */
  hintSamples?: number;
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  /** Called after each answer with (done, total). */
  onProgress?: (done: number, total: number) => void;
}

/** Rates over a set of sampled answers. */
export interface RateSet {
  samples: number;
  /** Share of answers showing each style (detector true). */
  styles: Record<StyleName, number>;
  /** Share showing each dimension's minority value (plain prose for markdown). */
  minority: Record<StyleName, number>;
  /** Share that ended with <|im_end|> before maxTokens. */
  wellFormed: number;
  meanTokens: number;
}

/** The whole measurement, as written to base_rates.json. */
export interface BaseRateReport {
  temperature: number;
  maxTokens: number;
  prompts: string;
  unhinted: RateSet;
  /** Per dimension: answers to held-out prompts whose hint line asks for the minority style. */
  hinted: Record<StyleName, HintedRateSet>;
  /**
   * The same with the hint worded as one of the held-out paraphrases (never in the corpus):
   * whether the teacher follows a hint in words it has not seen. Absent in reports written
   * before the paraphrase phase.
   */
  paraphrased?: Record<StyleName, HintedRateSet>;
}

/** Rates of answers whose hint asks for one dimension's minority style, with the hint texts used. */
export type HintedRateSet = RateSet & { instructions: readonly string[]; askedRate: number };

interface Answer {
  text: string;
  stopped: boolean;
  tokens: number;
}

function rates(answers: readonly Answer[]): RateSet {
  const n = Math.max(1, answers.length);
  const styles = {} as Record<StyleName, number>;
  const minority = {} as Record<StyleName, number>;
  const detected = answers.map((a) => detectStyles(a.text));
  for (const name of STYLE_NAMES) {
    styles[name] = detected.filter((d) => d[name]).length / n;
    minority[name] = detected.filter((d) => hasMinorityStyle(d, name)).length / n;
  }
  return {
    samples: answers.length,
    styles,
    minority,
    wellFormed: answers.filter((a) => a.stopped).length / n,
    meanTokens: answers.reduce((s, a) => s + a.tokens, 0) / n,
  };
}

/** Samples answers from `engine` and measures style rates with and without hints. */
export async function measureBaseRates(engine: PolicyEngine, tokenizer: Tokenizer, opts: BaseRateOptions = {}): Promise<BaseRateReport> {
  const samples = opts.samples ?? 200;
  const hintSamples = opts.hintSamples ?? 40;
  const temperature = opts.temperature ?? 0.8;
  const maxTokens = opts.maxTokens ?? 160;
  const seed = opts.seed ?? 7;
  const prompts = heldOutPrompts();
  const end = tokenizer.special['<|im_end|>'];
  const total = samples + 2 * hintSamples * STYLE_NAMES.length;
  let done = 0;
  const answer = async (userText: string, i: number): Promise<Answer> => {
    const ids = promptIds(tokenizer, [{ role: 'user', content: userText }]);
    const out = await engine.generate({ promptIds: ids, maxTokens, temperature, stopTokenIds: [end], seed: seed * 100_003 + i });
    const tokens = out.tokenIds.filter((id) => id !== end);
    opts.onProgress?.(++done, total);
    return { text: tokenizer.decode(tokens), stopped: out.finishReason === 'stop', tokens: tokens.length };
  };
  const plain: Answer[] = [];
  for (let i = 0; i < samples; i++) plain.push(await answer(prompts[i % prompts.length].text, i));
  // Each dimension answers hintSamples prompts per instruction set; `block` keeps the sampling
  // seeds of the canonical set where they were before the paraphrased set was added.
  const askedRates = async (block: number, texts: (name: StyleName) => readonly string[]): Promise<Record<StyleName, HintedRateSet>> => {
    const out = {} as Record<StyleName, HintedRateSet>;
    for (const [k, name] of STYLE_NAMES.entries()) {
      const instructions = texts(name);
      const answers: Answer[] = [];
      for (let i = 0; i < hintSamples; i++) {
        // Offset prompts per dimension so each instruction meets a spread of topics.
        const prompt = prompts[(i * 7 + k * 13) % prompts.length].text;
        answers.push(
          await answer(
            withHint(prompt, instructions[i % instructions.length]),
            samples + (block * STYLE_NAMES.length + k) * hintSamples + i,
          ),
        );
      }
      const set = rates(answers);
      out[name] = { ...set, instructions, askedRate: set.minority[name] };
    }
    return out;
  };
  const hinted = await askedRates(0, (name) => STYLE_INSTRUCTIONS[name].minority);
  const paraphrased = await askedRates(1, (name) => MINORITY_PARAPHRASES[name].heldOut);
  return {
    temperature,
    maxTokens,
    prompts: 'held-out phrasings of corpus topics (topics × HELD_OUT_TEMPLATES)',
    unhinted: rates(plain),
    hinted,
    paraphrased,
  };
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`.padStart(7);
}

/** A plain-text table of a report: minority rate without hint and asked rate with a hint. */
export function formatBaseRates(r: BaseRateReport): string {
  const label = (name: StyleName) => (name === 'markdown' ? 'plain (no markdown)' : name);
  const lines = [
    `temperature ${r.temperature}, ${r.unhinted.samples} unhinted answers, ${r.hinted.markdown.samples} per hint`,
    `${'style (minority value)'.padEnd(24)}${'no hint'.padStart(9)}${'hint asks it'.padStart(14)}${'held-out words'.padStart(16)}`,
  ];
  const paraphrased = (name: StyleName) => (r.paraphrased === undefined ? '      –' : pct(r.paraphrased[name].askedRate));
  for (const name of STYLE_NAMES)
    lines.push(
      `${label(name).padEnd(24)}${pct(r.unhinted.minority[name]).padStart(9)}${pct(r.hinted[name].askedRate).padStart(14)}${paraphrased(name).padStart(16)}`,
    );
  if (r.paraphrased !== undefined)
    lines.push(`held-out wordings vs the canonical sentence: ${pct(paraphraseRatio(r) ?? 0).trim()} of its rate (mean over styles)`);
  lines.push(
    `${'well-formed (<|im_end|>)'.padEnd(24)}${pct(r.unhinted.wellFormed).padStart(9)}${pct(Math.min(...STYLE_NAMES.map((n) => r.hinted[n].wellFormed))).padStart(14)}`,
  );
  lines.push(
    `mean answer length: ${r.unhinted.meanTokens.toFixed(1)} tokens; minority value of markdown is ${String(MINORITY.markdown)} (plain prose)`,
  );
  return lines.join('\n');
}

/**
 * Hint-following in held-out words relative to the canonical sentence: the mean asked rate over
 * the five dimensions with held-out paraphrases divided by the mean with the canonical sentence
 * (null when the report has no paraphrased set).
 */
export function paraphraseRatio(r: BaseRateReport): number | null {
  if (r.paraphrased === undefined) return null;
  const mean = (set: Record<StyleName, HintedRateSet>) => STYLE_NAMES.reduce((s, n) => s + set[n].askedRate, 0) / STYLE_NAMES.length;
  return mean(r.paraphrased) / Math.max(1e-9, mean(r.hinted));
}
