import { test } from 'node:test';
import assert from 'node:assert/strict';
import { injectHint } from '../scoring/hint-inject.ts';
import { trainBpe } from '../engines/embedded/tokenizer.ts';
import { DEFAULT_CORPUS, generateCorpus, heldOutPrompts, withHint } from './corpus.ts';
import { dialogueExample, tokenizerTexts } from './encode.ts';
import { lengthBuckets } from './run.ts';
import { HELD_OUT_TEMPLATES, TOPICS } from './topics.ts';
import { MINORITY, STYLE_NAMES, detectStyles, type StyleName } from './styles.ts';

const corpus = generateCorpus(2000, 42);

test('same seed → same corpus; another seed → another corpus', () => {
  assert.deepEqual(generateCorpus(50, 42), corpus.slice(0, 50));
  assert.notDeepEqual(generateCorpus(50, 43), corpus.slice(0, 50));
});

test('every rendered answer shows exactly the styles it was generated with', () => {
  for (const d of corpus) {
    if (d.styles === null) continue;
    const answer = d.messages[d.messages.length - 1].content as string;
    assert.deepEqual(detectStyles(answer), d.styles, answer);
  }
});

test('unprompted answers: each minority style within ±5 points of its generator rate', () => {
  const plain = corpus.filter((d) => d.kind === 'plain');
  assert.ok(plain.length > 1000 && plain.length < 1250, `expected about 55% of the dialogues to be plain, got ${plain.length}`);
  for (const name of STYLE_NAMES) {
    const rate = plain.filter((d) => d.styles?.[name] === MINORITY[name]).length / plain.length;
    const expected = DEFAULT_CORPUS.minorityRate[name];
    assert.ok(Math.abs(rate - expected) <= 0.05, `${name}: minority rate ${rate.toFixed(3)}, generator rate ${expected}`);
  }
});

test('the dimensions are independent: plain prose is as common among casual answers as overall', () => {
  const plain = corpus.filter((d) => d.kind === 'plain' && d.styles !== null);
  const casual = plain.filter((d) => d.styles?.casual === true);
  const rate = (ds: typeof plain) => ds.filter((d) => d.styles?.markdown === false).length / ds.length;
  assert.ok(
    Math.abs(rate(casual) - rate(plain)) < 0.08,
    `plain prose: ${rate(casual).toFixed(3)} among casual vs ${rate(plain).toFixed(3)} overall`,
  );
});

test('hintRate of the single-turn dialogues carry a hint line, and ≥ 90% of their answers follow it', () => {
  const single = corpus.filter((d) => d.kind === 'plain' || d.kind === 'hinted');
  const hinted = corpus.filter((d) => d.kind === 'hinted');
  const share = hinted.length / single.length;
  assert.ok(Math.abs(share - DEFAULT_CORPUS.hintRate) < 0.05, `hinted share ${share.toFixed(3)}, hintRate ${DEFAULT_CORPUS.hintRate}`);
  let asked = 0;
  let followed = 0;
  for (const d of hinted) {
    for (const [name, value] of Object.entries(d.asked)) {
      asked += 1;
      if (d.styles?.[name as StyleName] === value) followed += 1;
    }
  }
  assert.ok(followed / asked >= 0.9, `followed ${followed}/${asked}`);
});

test('hint lines use the exact OPD injection format', () => {
  const hinted = corpus.find((d) => d.kind === 'hinted');
  assert.ok(hinted !== undefined);
  const user = hinted.messages.filter((m) => m.role === 'user').at(-1)?.content as string;
  const [question, instruction] = user.split("\n\n[user's hint / instruction]\n");
  assert.equal(withHint(question, instruction), user);
  assert.equal(injectHint([{ role: 'user', content: question }], instruction)[0].content, user);
});

test('two-turn dialogues: a complaint leads to a redo in the asked minority style; thanks to a short reply', () => {
  const redo = corpus.filter((d) => d.kind === 'redo');
  const thanks = corpus.filter((d) => d.kind === 'thanks');
  assert.ok(redo.length > 50 && thanks.length > 30, `redo ${redo.length}, thanks ${thanks.length}`);
  for (const d of redo) assert.equal(d.messages.filter((m) => m.role === 'assistant').length, 2);
  const followed = redo.filter((d) => Object.entries(d.asked).every(([name, v]) => d.styles?.[name as StyleName] === v)).length;
  assert.ok(followed / redo.length >= 0.9, `redo followed ${followed}/${redo.length}`);
});

test('held-out prompts never occur as a corpus question', () => {
  const questions = new Set(
    corpus.flatMap((d) => d.messages.filter((m) => m.role === 'user').map((m) => String(m.content).split('\n')[0])),
  );
  const held = heldOutPrompts();
  assert.equal(held.length, TOPICS.length * HELD_OUT_TEMPLATES.length);
  for (const p of held) assert.equal(questions.has(p.text), false, p.text);
});

test('tokenizer training is deterministic and examples end with <|im_end|> after the generation prompt', () => {
  const texts = tokenizerTexts(corpus.slice(0, 300));
  const a = trainBpe(texts, 600);
  const b = trainBpe(texts, 600);
  assert.deepEqual(a.toJSON(), b.toJSON());
  const d = corpus[0];
  const e = dialogueExample(a, d);
  assert.equal(e.targetIds.at(-1), a.special['<|im_end|>']);
  assert.equal(a.decode(e.targetIds.slice(0, -1)), d.messages.at(-1)?.content);
  assert.ok(a.decode(e.promptIds).endsWith('<|im_start|>assistant\n'));
});

test('length buckets: same seed → same batches; every batch full; nothing repeated', () => {
  const examples = corpus.slice(0, 200).map((_, i) => ({ promptIds: [1], targetIds: Array.from({ length: 1 + (i % 37) }, () => 2) }));
  const a = lengthBuckets(examples, 8, 5);
  assert.deepEqual(a, lengthBuckets(examples, 8, 5));
  assert.equal(a.length, 25);
  assert.ok(a.every((b) => b.length === 8));
  assert.equal(new Set(a.flat()).size, 200);
});
