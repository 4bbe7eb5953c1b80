import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyNextState } from '../judge/rules.ts';
import { type HintContext, type HintModel, rankedCandidates, selectHintSpan, toolCandidates, userCandidates } from './hint-span.ts';
import { readFeedback } from './index.ts';
import { trainSoftmax } from './reply-model.ts';

const texts = (cs: Array<{ text: string }>) => cs.map((c) => c.text);

test('user candidates: sentences, clause runs and cue tails, in six languages', () => {
  const en = texts(userCandidates('Nice layout, but the footer should be dark grey. The logo is tiny.', null));
  assert.ok(en.includes('the footer should be dark grey.'));
  assert.ok(en.includes('The logo is tiny.'));
  assert.ok(en.includes('Nice layout, but the footer should be dark grey.'));
  // A dot inside a number does not end a sentence; the comma does end a clause.
  assert.ok(texts(userCandidates('6 feet is 1.83 m, you wrote 1.6', null)).includes('6 feet is 1.83 m'));
  assert.ok(texts(userCandidates('Bien, pero pon las fechas en formato ISO.', null)).includes('pon las fechas en formato ISO.'));
  assert.ok(texts(userCandidates('Danke, aber bitte ohne Emojis.', null)).includes('bitte ohne Emojis.'));
  assert.ok(texts(userCandidates('Merci, mais mets le tableau en premier.', null)).includes('mets le tableau en premier.'));
  assert.ok(texts(userCandidates('内容可以，不过标题要短一点', null)).includes('不过标题要短一点'));
  assert.ok(texts(userCandidates('内容可以，不过标题要短一点', null)).includes('标题要短一点'));
  const ja = texts(userCandidates('いいけど、フォントを大きくしてほしいよ', null));
  assert.ok(ja.includes('フォントを大きくしてほしいよ'));
  // Before a sentence-final particle: the request without its "よ".
  assert.ok(ja.includes('フォントを大きくしてほしい'));
  // The rules' hint and the stated correction come first and are tagged as such.
  const withRules = userCandidates('Too formal. Use first names.', 'Use first names.', "It's Ana, not Anna.");
  assert.equal(withRules[0].text, 'Use first names.');
  assert.deepEqual(withRules[0].tags.slice(0, 2), ['src:rules', 'src:sentence']);
  assert.equal(withRules[1].text, "It's Ana, not Anna.");
  // A cue word right after a negation does not start a span: that would flip the request.
  const negated = texts(userCandidates('不要用列表和加粗，写成普通段落。', null));
  assert.ok(negated.includes('不要用列表和加粗'));
  assert.ok(!negated.some((t) => t.startsWith('用列表')));
  assert.ok(!texts(userCandidates("Please don't use tables here.", null)).some((t) => t.startsWith('use tables')));
});

test('tool candidates: lines without their labels, "did you mean", a field with its message; no source excerpt', () => {
  const rustc = texts(
    toolCandidates(
      'error[E0308]: mismatched types\n --> src/main.rs:4:17\n  |\n4 |     let n: u8 = "7";\n  |                 ^^^ expected `u8`\nhelp: try parsing the string: `"7".parse()`',
      null,
    ),
  );
  assert.ok(rustc.includes('try parsing the string: `"7".parse()`'));
  assert.ok(rustc.includes('help: try parsing the string: `"7".parse()`'));
  assert.ok(!rustc.some((c) => c.includes('let n: u8')));
  assert.ok(texts(toolCandidates("error: unknown flag '--dryrun'. Did you mean --dry-run?", null)).includes('--dry-run'));
  const api = texts(toolCandidates('HTTP/1.1 400 Bad Request\n\n{"errors":[{"field":"zip","message":"must have 5 digits"}]}', null));
  assert.ok(api.includes('zip must have 5 digits'));
  assert.ok(api.includes('must have 5 digits'));
  // Column gaps and sentences inside a line are cut too.
  const lint = texts(toolCandidates('  7:3  error  Unexpected var, use let or const instead  no-var', null));
  assert.ok(lint.includes('use let or const instead'));
});

/** A hand-made ranker that likes spans starting with "put" and nothing else. */
function tailModel(replaceAt: number, addAt: number): HintModel {
  return { version: 1, replaceAt, addAt, bias: [0, -3], weights: { 'w0:put': [0, 6] } };
}

test('selection: the best span when sure enough, else the rules hint; a higher bar where the rules found none; never on 0', () => {
  const text = 'Nice work on this layout, lovely colours - put the totals in bold.';
  const ctx: HintContext = { role: 'user', lang: 'en', score: -1, rulesHint: text };
  assert.equal(selectHintSpan(tailModel(0.5, 0.9), text, ctx).hint, 'put the totals in bold.');
  // Not sure enough (p = 0.95 < 0.99): the rules' hint stays.
  assert.equal(selectHintSpan(tailModel(0.99, 0.99), text, ctx).hint, ctx.rulesHint);
  // The rules found no hint: only the higher bar lets a span in.
  const none = { ...ctx, rulesHint: null };
  assert.equal(selectHintSpan(tailModel(0.5, 0.99), text, none).hint, null);
  assert.equal(selectHintSpan(tailModel(0.5, 0.9), text, none).hint, 'put the totals in bold.');
  // A 0 verdict never carries a hint; without a model the rules' hint is kept as is.
  assert.equal(selectHintSpan(tailModel(0, 0), text, { ...ctx, score: 0 }).hint, null);
  assert.equal(selectHintSpan(null, text, ctx).hint, ctx.rulesHint);
});

test('the ranker learns from labelled spans with the shared trainer and picks the span in an unseen reply', () => {
  const train: Array<[string, string]> = [
    ['Looks good, but make the title shorter.', 'make the title shorter.'],
    ['Fine, but use British spelling.', 'use British spelling.'],
    ['Thanks, but drop the last paragraph.', 'drop the last paragraph.'],
    ['Cool, but add a legend to the chart.', 'add a legend to the chart.'],
  ];
  const rows = train.flatMap(([reply, hint]) =>
    rankedCandidates(reply, { role: 'user', lang: 'en', score: -1, rulesHint: null }).map(({ candidate, features }) => ({
      features,
      target: candidate.text === hint ? 1 : 0,
    })),
  );
  const { bias, weights } = trainSoftmax(rows, 2, { epochs: 30, learningRate: 0.1, minCount: 2 });
  assert.deepEqual(trainSoftmax(rows, 2, { epochs: 30, learningRate: 0.1, minCount: 2 }).weights, weights);
  const model: HintModel = { version: 1, replaceAt: 0, addAt: 0, bias, weights };
  const ctx: HintContext = { role: 'user', lang: 'en', score: -1, rulesHint: null };
  assert.equal(
    selectHintSpan(model, 'Thanks for the quick and thorough work, but sort the rows by date.', ctx).hint,
    'sort the rows by date.',
  );
  assert.equal(selectHintSpan(model, 'Nice, but sort the rows by date.', ctx).hint, 'sort the rows by date.');
});

test('with the committed models: hints on failures and wishes, in several languages; none on neutral replies', () => {
  const hintOf = (t: string) => readFeedback(t).hint ?? '';
  assert.match(hintOf('Thanks, that works. Next time please put the command first.'), /put the command first/);
  assert.match(hintOf('No, the meeting is on Thursday, not Tuesday.'), /Thursday/);
  assert.match(hintOf('Está bien, pero ponlo en una tabla.'), /ponlo en una tabla/);
  assert.match(hintOf('Nicht schlecht, aber bitte kürzer und ohne Fachbegriffe.'), /kürzer und ohne Fachbegriffe/);
  assert.match(hintOf('不对，应该用毫秒，不是秒'), /应该用毫秒/);
  assert.equal(readFeedback('Can you also explain how the cache works?').hint, null);
  // The sentence the rules read as the instruction stays whole; a generic retry is not added to it.
  assert.match(hintOf('The capitals feel like shouting. Do it again. Please write everything in lowercase.'), /everything in lowercase/);
  assert.equal(
    hintOf('Give it another go. Please write plain prose without lists or bold text.'),
    'Please write plain prose without lists or bold text.',
  );
  // A tool's failure: the hint is its stated fix, never the source excerpt.
  const tool = classifyNextState({
    role: 'tool',
    content: "error: unrecognized option '--verbsoe'\nDid you mean '--verbose'?\nexit status 2",
  });
  assert.equal(tool.score, -1);
  assert.match(tool.hint ?? '', /--verbose/);
});
