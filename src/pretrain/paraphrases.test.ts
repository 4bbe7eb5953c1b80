import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Tokenizer, type TokenizerJson } from '../engines/embedded/tokenizer.ts';
import { Rng } from '../rl/index.ts';
import { generateCorpus, heldOutPrompts, withHint } from './corpus.ts';
import { promptIds } from './encode.ts';
import { STYLE_INSTRUCTIONS } from './instructions.ts';
import { MAJORITY_PARAPHRASES, MINORITY_PARAPHRASES, composedWordings, drawParaphrase } from './paraphrases.ts';
import { STYLE_NAMES, type StyleName } from './styles.ts';

const CJK = /\p{Script=Han}/u;
const allHeldOut = STYLE_NAMES.flatMap((s) => MINORITY_PARAPHRASES[s].heldOut);
const allCanonical = STYLE_NAMES.flatMap((s) => [...STYLE_INSTRUCTIONS[s].minority, ...STYLE_INSTRUCTIONS[s].majority]);

test('each style has many training wordings and held-out ones, with Chinese in both; no wording is shared or canonical', () => {
  const seen = new Set<string>();
  for (const style of STYLE_NAMES) {
    const { train, heldOut } = MINORITY_PARAPHRASES[style];
    assert.ok(train.length >= 10 && heldOut.length >= 4, `${style}: ${train.length} train, ${heldOut.length} held out`);
    assert.ok(train.some((t) => CJK.test(t)) && heldOut.some((t) => CJK.test(t)), `${style}: Chinese in both parts`);
    for (const text of [...train, ...heldOut, ...MAJORITY_PARAPHRASES[style]]) {
      assert.equal(seen.has(text.toLowerCase()), false, `"${text}" appears twice`);
      assert.equal(allCanonical.includes(text), false, `"${text}" is a canonical sentence`);
      seen.add(text.toLowerCase());
    }
    // Lengths vary: one- or two-word shorthand up to a full sentence with a reason.
    const words = train.filter((t) => !CJK.test(t)).map((t) => t.split(/\s+/).length);
    assert.ok(
      Math.min(...words) <= 4 && Math.max(...words) - Math.min(...words) >= 5,
      `${style}: train wordings of ${Math.min(...words)}–${Math.max(...words)} words`,
    );
  }
});

test('paraphraseRate 0 gives the corpus of the earlier phases: only canonical sentences', () => {
  const a = generateCorpus(400, 1234);
  assert.deepEqual(generateCorpus(400, 1234, { paraphraseRate: 0 }), a);
  const hints = a
    .filter((d) => d.kind === 'hinted')
    .map((d) =>
      String(d.messages.filter((m) => m.role === 'user').at(-1)?.content)
        .split('\n')
        .at(-1),
    );
  for (const h of hints)
    assert.ok(
      allCanonical.some((c) => h?.includes(c)),
      `non-canonical hint "${h}"`,
    );
});

test('paraphraseRate 0.6: about 60% of hints use training wordings, never a held-out one, and the answers still follow them', () => {
  const corpus = generateCorpus(3000, 99, { paraphraseRate: 0.6 });
  const users = corpus
    .filter((d) => d.kind !== 'plain' && d.kind !== 'thanks')
    .map((d) => String(d.messages.filter((m) => m.role === 'user').at(-1)?.content));
  for (const u of users) for (const h of allHeldOut) assert.equal(u.includes(h), false, `held-out "${h}" in the corpus: ${u}`);
  const single = corpus.filter((d) => d.kind === 'hinted' && Object.keys(d.asked).length === 1);
  const canonical = single.filter((d) => allCanonical.some((c) => String(d.messages.at(-2)?.content).endsWith(c))).length;
  const share = 1 - canonical / single.length;
  assert.ok(share > 0.52 && share < 0.68, `paraphrased share ${share.toFixed(3)}`);
  const chinese = single.filter((d) => CJK.test(String(d.messages.at(-2)?.content).split('\n').at(-1) ?? '')).length;
  assert.ok(chinese / single.length > 0.04, `Chinese hints ${chinese}/${single.length}`);
  let asked = 0;
  let followed = 0;
  for (const d of corpus.filter((x) => x.kind === 'hinted')) {
    for (const [name, value] of Object.entries(d.asked)) {
      asked += 1;
      if (d.styles?.[name as StyleName] === value) followed += 1;
    }
  }
  assert.ok(followed / asked >= 0.9, `followed ${followed}/${asked}`);
});

test('training wordings: fixed ones and composed ones (hundreds per style), sometimes framed, the wording kept whole', () => {
  const rng = new Rng(5);
  const draws = Array.from({ length: 400 }, () => drawParaphrase(rng, 'terse', true));
  const fixed = MINORITY_PARAPHRASES.terse.train.map((w) => w.toLowerCase());
  const composed = composedWordings('terse').map((w) => w.toLowerCase());
  const bareFixed = draws.filter((t) => fixed.includes(t.toLowerCase())).length;
  const bareComposed = draws.filter((t) => composed.includes(t.toLowerCase())).length;
  assert.ok(
    bareFixed > 100 && bareComposed > 100 && bareFixed + bareComposed < 340,
    `unframed: ${bareFixed} fixed, ${bareComposed} composed of 400`,
  );
  for (const t of draws)
    assert.ok(
      [...fixed, ...composed].some((w) => t.toLowerCase().includes(w)),
      t,
    );
  for (const style of STYLE_NAMES)
    assert.ok(composedWordings(style).length >= 200, `${style}: ${composedWordings(style).length} composed wordings`);
});

test('noise: at 0 the draws are unchanged; above 0, pairs of style words and neutral words around the request, Chinese left alone', () => {
  const plain = (noise?: number) => {
    const rng = new Rng(11);
    return Array.from({ length: 300 }, () => drawParaphrase(rng, 'casual', true, noise === undefined ? {} : { noise }));
  };
  assert.deepEqual(plain(0), plain(), 'noise 0 draws exactly what no option draws');
  assert.deepEqual(generateCorpus(300, 7, { paraphraseRate: 0.7, paraphraseNoise: 0 }), generateCorpus(300, 7, { paraphraseRate: 0.7 }));
  const noisy = plain(0.5);
  const neutral =
    /^(hmm, |ok so |honestly, |maybe |hey, |for this one, )| (this time|for me|if you can|going forward|overall|in general|as well)\b/i;
  const padded = noisy.filter((t) => neutral.test(t));
  const pairs = noisy.filter((t) =>
    /\b(casual|relaxed|chill|friendly|informal|easygoing|chatty) and (casual|relaxed|chill|friendly|informal|easygoing|chatty)\b/i.test(t),
  );
  assert.ok(pairs.length > 10 && padded.length > 30, `${pairs.length} pairs, ${padded.length} padded of 300`);
  for (const t of noisy.filter((x) => CJK.test(x.replace(/ 谢谢$/, ''))))
    assert.doesNotMatch(t, neutral, `neutral English words around a Chinese wording: ${t}`);
  const corpus = generateCorpus(2000, 3, { paraphraseRate: 0.7, paraphraseNoise: 0.5 });
  for (const d of corpus)
    for (const m of d.messages.filter((x) => x.role === 'user'))
      for (const h of allHeldOut) assert.equal(String(m.content).includes(h), false, `held-out "${h}" in the corpus`);
});

test('wider: off draws what no option draws; on, style words first ("chill tone") and more Chinese appear', () => {
  const draw = (wider?: boolean) => {
    const rng = new Rng(13);
    return Array.from({ length: 400 }, () => drawParaphrase(rng, 'casual', true, wider === undefined ? {} : { wider }));
  };
  assert.deepEqual(draw(false), draw());
  assert.deepEqual(
    generateCorpus(300, 7, { paraphraseRate: 0.7, paraphraseWider: false }),
    generateCorpus(300, 7, { paraphraseRate: 0.7 }),
  );
  const wide = draw(true);
  const styleFirst = wide.filter((t) =>
    /^(casual|relaxed|chill|informal|easygoing|chatty|conversational) (tone|style|language|wording)/i.test(t),
  );
  assert.ok(styleFirst.length > 10, `${styleFirst.length} of 400 start with the style word`);
  assert.ok(new Set(wide.filter((t) => CJK.test(t))).size >= 4, 'the written Chinese wordings grow');
});

test('held-out wordings stay unseen: no composed wording occurs inside one', () => {
  for (const style of STYLE_NAMES) {
    for (const h of MINORITY_PARAPHRASES[style].heldOut) {
      const found = composedWordings(style).find((w) => h.toLowerCase().includes(w.toLowerCase()));
      assert.equal(found, undefined, `"${found}" is inside held-out "${h}"`);
    }
  }
});

test('with the committed tokenizer, every hinted held-out prompt (Chinese included) fits the context with room for an answer', () => {
  const dir = new URL('../../checkpoints/base/', import.meta.url).pathname;
  const tok = Tokenizer.fromJSON(JSON.parse(readFileSync(`${dir}tokenizer.json`, 'utf8')) as TokenizerJson);
  const ctx = (JSON.parse(readFileSync(`${dir}config.json`, 'utf8')) as { model: { ctx: number } }).model.ctx;
  const longest = heldOutPrompts().reduce((a, b) => (a.text.length >= b.text.length ? a : b)).text;
  for (const text of [...allHeldOut, ...STYLE_NAMES.flatMap((s) => MINORITY_PARAPHRASES[s].train)]) {
    const ids = promptIds(tok, [
      { role: 'system', content: 'You are a helpful assistant that answers everyday questions.' },
      { role: 'user', content: withHint(longest, `One more thing: ${text} 谢谢`) },
    ]);
    // Answers are sampled with up to 160 tokens (base rates); the prompt must leave that much room.
    assert.ok(ids.length + 160 <= ctx, `${ids.length} prompt tokens for "${text}"`);
    assert.equal(tok.decode(tok.encode(text)), text, 'byte-level BPE round-trips the wording');
  }
});
