import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { EmbeddedEngine } from '../engines/embedded/engine.ts';
import { paraphraseRatio, type BaseRateReport, type HintedRateSet } from './base-rates.ts';
import { heldOutPrompts } from './corpus.ts';
import { STYLE_INSTRUCTIONS } from './instructions.ts';
import { MINORITY_PARAPHRASES } from './paraphrases.ts';
import { STYLE_NAMES, type StyleName } from './styles.ts';
import { promptIds } from './encode.ts';

const dir = new URL('../../checkpoints/base/', import.meta.url).pathname;

test('the committed base checkpoint loads with a fresh optimizer and writes sensible text', async () => {
  assert.ok(existsSync(`${dir}config.json`), `missing ${dir}config.json: run npm run pretrain`);
  assert.equal(existsSync(`${dir}optimizer.safetensors`), false, 'the base checkpoint carries no optimizer state');
  const engine = await EmbeddedEngine.load(dir, { keepReference: false });
  try {
    assert.equal(engine.optimizerStep, 0);
    assert.equal(engine.version(), 0);
    const tok = engine.tokenizer;
    assert.ok(tok !== null);
    assert.equal(tok.vocabSize, engine.config.vocabSize);
    const prompt = heldOutPrompts()[0];
    const out = await engine.generate({
      promptIds: promptIds(tok, [{ role: 'user', content: prompt.text }]),
      maxTokens: 6,
      temperature: 0,
      stopTokenIds: [tok.special['<|im_end|>']],
    });
    assert.equal(out.tokenIds.length, 6);
    const text = tok.decode(out.tokenIds);
    // Six greedy tokens of a trained model are words, not byte soup or special tokens.
    assert.match(text, /^[A-Za-z*]/);
    assert.doesNotMatch(text, /<\|im_|\uFFFD/);
  } finally {
    await engine.close();
  }
});

// What the committed checkpoint reached (npm run pretrain:base: the five phases of
// src/pretrain/recipe.ts; measured at T = 0.8 on held-out phrasings, 200 unhinted answers and 40
// per hint). The targets are 10–25% per minority style unhinted and ≥ 90% for an asked style; the
// bounds below are what this checkpoint actually meets (a little slack for the sampling noise of a
// re-run), so a regression shows up.
// Every asked style is followed 95–100% of the time (target met). Not at target: without a hint,
// the paraphrase phases left terse (9.5%), casual (8.5%), the sign-off (6%) and lowercase (4%)
// rarer than 10%, which makes the personas' starting ratings low.
const UNHINTED_MIN: Record<StyleName, number> = { markdown: 0.1, terse: 0.05, casual: 0.04, lowercase: 0.015, signoff: 0.025 };
const UNHINTED_MAX: Record<StyleName, number> = { markdown: 0.25, terse: 0.25, casual: 0.25, lowercase: 0.25, signoff: 0.15 };
const HINTED_MIN: Record<StyleName, number> = { markdown: 0.9, terse: 0.9, casual: 0.9, lowercase: 0.9, signoff: 0.9 };

test('base_rates.json: measured with the current instruction sentences, minority styles rare, hints followed', () => {
  const report = JSON.parse(readFileSync(`${dir}base_rates.json`, 'utf8')) as BaseRateReport;
  assert.equal(report.temperature, 0.8);
  assert.ok(report.unhinted.samples >= 200 && report.unhinted.wellFormed >= 0.95, `well-formed ${report.unhinted.wellFormed}`);
  for (const name of STYLE_NAMES) {
    const rate = report.unhinted.minority[name];
    assert.ok(rate >= UNHINTED_MIN[name] && rate <= UNHINTED_MAX[name], `${name} without hint: ${rate}`);
    const hinted = report.hinted[name];
    // A report measured with other instruction texts says nothing about the current ones.
    assert.deepEqual(hinted.instructions, STYLE_INSTRUCTIONS[name].minority, `${name}: re-measure with npm run pretrain -- --rates-only`);
    assert.ok(hinted.askedRate >= HINTED_MIN[name], `${name} asked by a hint: ${hinted.askedRate}`);
    assert.ok(
      hinted.askedRate > rate + 0.1,
      `${name}: the hint must raise the rate clearly above the unhinted ${rate}, got ${hinted.askedRate}`,
    );
    assert.ok(hinted.wellFormed >= 0.95, `${name} hinted well-formed ${hinted.wellFormed}`);
  }
});

// Hints in words the model never saw (MINORITY_PARAPHRASES[style].heldOut, 40 answers per style,
// same prompts and temperature as above). Target: the mean over styles ≥ 80% of the canonical
// sentence's rate. The committed checkpoint reaches 75.8% (the phase-2 checkpoint, which knew one
// sentence per style, 37%): plain prose 82.5%, terse 75%, lowercase 92.5%, sign-off 90%, and
// casual 27.5% — the one style whose held-out wordings ("casual vibe please", "Be more laid-back
// and friendly about it.") it mostly misreads. The bounds are what it meets, less sampling slack.
const PARAPHRASED_MIN: Record<StyleName, number> = { markdown: 0.7, terse: 0.6, casual: 0.15, lowercase: 0.8, signoff: 0.75 };
const PARAPHRASE_RATIO_MIN = 0.7;

test('base_rates.json: hint-following with held-out paraphrases is measured and does not regress', () => {
  const report = JSON.parse(readFileSync(`${dir}base_rates.json`, 'utf8')) as BaseRateReport;
  const paraphrased = report.paraphrased;
  assert.ok(paraphrased !== undefined, 'no paraphrased rates: re-measure with npm run pretrain -- --rates-only');
  for (const name of STYLE_NAMES) {
    const set: HintedRateSet = paraphrased[name];
    assert.deepEqual(set.instructions, MINORITY_PARAPHRASES[name].heldOut, `${name}: measured with other wordings; re-measure`);
    assert.ok(set.samples >= 40 && set.wellFormed >= 0.9, `${name}: ${set.samples} answers, well-formed ${set.wellFormed}`);
    assert.ok(set.askedRate >= PARAPHRASED_MIN[name], `${name} asked in held-out words: ${set.askedRate}`);
  }
  const ratio = paraphraseRatio(report) ?? 0;
  assert.ok(ratio >= PARAPHRASE_RATIO_MIN, `held-out wordings reach ${(100 * ratio).toFixed(1)}% of the canonical sentence's rate`);
});
