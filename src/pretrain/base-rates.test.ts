import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EmbeddedEngine } from '../engines/embedded/engine.ts';
import { tinyCheckpoint } from '../../test/support/tiny-checkpoint.ts';
import { formatBaseRates, measureBaseRates, paraphraseRatio, type BaseRateReport } from './base-rates.ts';
import { STYLE_INSTRUCTIONS } from './instructions.ts';
import { MINORITY_PARAPHRASES } from './paraphrases.ts';
import { STYLE_NAMES } from './styles.ts';

test('measureBaseRates: canonical and held-out-paraphrase hint sets per style, rates in [0, 1], same seed → same report', async () => {
  const engine = await EmbeddedEngine.load(await tinyCheckpoint(512), { keepReference: false });
  try {
    const tok = engine.tokenizer;
    assert.ok(tok !== null);
    const opts = { samples: 2, hintSamples: 2, maxTokens: 4, seed: 3 };
    const a = await measureBaseRates(engine, tok, opts);
    assert.equal(a.unhinted.samples, 2);
    assert.ok(a.paraphrased !== undefined);
    for (const name of STYLE_NAMES) {
      assert.deepEqual(a.hinted[name].instructions, STYLE_INSTRUCTIONS[name].minority);
      assert.deepEqual(a.paraphrased[name].instructions, MINORITY_PARAPHRASES[name].heldOut);
      assert.equal(a.paraphrased[name].samples, 2);
      assert.ok(a.paraphrased[name].askedRate >= 0 && a.paraphrased[name].askedRate <= 1);
    }
    assert.deepEqual(await measureBaseRates(engine, tok, opts), a);
  } finally {
    await engine.close();
  }
});

/** A report whose every asked rate is `canonical` with the canonical sentence and `heldOut` with held-out words. */
function report(canonical: number, heldOut: number | null): BaseRateReport {
  const set = (asked: number) => ({
    samples: 40,
    styles: { markdown: 0, terse: 0, casual: 0, lowercase: 0, signoff: 0 },
    minority: { markdown: asked, terse: asked, casual: asked, lowercase: asked, signoff: asked },
    wellFormed: 1,
    meanTokens: 50,
    instructions: [],
    askedRate: asked,
  });
  const per = (asked: number) => Object.fromEntries(STYLE_NAMES.map((n) => [n, set(asked)])) as unknown as BaseRateReport['hinted'];
  return {
    temperature: 0.8,
    maxTokens: 160,
    prompts: 'x',
    unhinted: set(0.1),
    hinted: per(canonical),
    ...(heldOut === null ? {} : { paraphrased: per(heldOut) }),
  };
}

test('paraphraseRatio: held-out rate over canonical rate; null for a report measured before paraphrases', () => {
  assert.equal(paraphraseRatio(report(0.8, 0.6)), 0.6 / 0.8);
  assert.equal(paraphraseRatio(report(0.8, null)), null);
  assert.match(formatBaseRates(report(0.8, 0.6)), /held-out wordings vs the canonical sentence: 75\.0% of its rate/);
  assert.doesNotMatch(formatBaseRates(report(0.8, null)), /held-out wordings vs/);
});
