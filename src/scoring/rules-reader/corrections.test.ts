import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyNextState } from '../judge/rules.ts';
import { readFeedback } from './index.ts';
import { correctionHint, isBareRedo, mergeHints } from './corrections.ts';
import { withoutFutureLead, withoutTrailingReason } from './hint-extent.ts';
import { type ReplyScore, predictScore, replyFeatures, trainReplyModel } from './reply-model.ts';

test('a failure that states what was right carries it as the hint, in six languages', () => {
  assert.equal(correctionHint("Sydney? Seriously? It's Canberra.", 'en'), "It's Canberra.");
  assert.equal(
    correctionHint('Good summary but you left out the budget decision, please add it.', 'en'),
    'you left out the budget decision, please add it.',
  );
  assert.equal(correctionHint('8 fl oz. not 12.', 'en'), '8 fl oz.');
  assert.equal(correctionHint('the average of 4, 8, 15 is 9, you said 11', 'en'), 'the average of 4, 8, 15 is 9');
  assert.equal(correctionHint('你数错了，是5个不是4个', 'zh'), '是5个不是4个');
  assert.equal(correctionHint('Contaste mal: son 12 invitados, no 10.', 'es'), 'son 12 invitados, no 10.');
  assert.equal(correctionHint("Das stimmt nicht, der Artikel ist 'die', nicht 'der'.", 'de'), "der Artikel ist 'die', nicht 'der'.");
  assert.equal(
    correctionHint('Non, je voulais le résultat en euros, pas en dollars.', 'fr'),
    'je voulais le résultat en euros, pas en dollars.',
  );
  // Not corrections: a description of the answer, a complaint without a fix.
  assert.equal(correctionHint('It looks like a spreadsheet, not a letter.', 'en'), null);
  assert.equal(correctionHint("That's not what I was after.", 'en'), null);
});

test('hints: the narrower of instruction and stated correction; a long wish loses its "going forward"', () => {
  assert.equal(mergeHints('please add it.', 'you left out X, please add it.'), 'you left out X, please add it.');
  assert.equal(
    mergeHints('Runs fine - I wanted the top 5 per region, not overall.', 'I wanted the top 5 per region, not overall.'),
    'I wanted the top 5 per region, not overall.',
  );
  assert.equal(withoutFutureLead("Going forward, I'd rather you not use one-letter names."), "I'd rather you not use one-letter names.");
  assert.equal(withoutFutureLead('Next time, skip the preamble.'), 'Next time, skip the preamble.');
  // A few words before the marker, or a colon after it, lead into the wish; a marker that opens it stays.
  assert.equal(withoutFutureLead('oh and next time put the imports on top'), 'put the imports on top');
  assert.equal(withoutFutureLead('A small request for the future: keep the tests in one file.'), 'keep the tests in one file.');
  assert.equal(withoutFutureLead('Next time use yarn.'), 'Next time use yarn.');
});

test('after a complaint, a plain statement about a named thing is the stated fact', () => {
  assert.equal(readFeedback('why is the header green? our brand colour is #0A3D62').hint, 'our brand colour is #0A3D62');
  assert.equal(readFeedback("this crashes on the sample file. yaml doesn't allow tabs.").hint, "yaml doesn't allow tabs");
  // Statements about the answer or by the user about themselves are not facts to quote.
  assert.equal(readFeedback('That is wrong. The code is broken.').hint, null);
  assert.equal(readFeedback('yep that was it. the second page no longer repeats.').hint, null);
});

test('contrasts read as German or French in an English-looking reply; a bare pointer back names nothing', () => {
  assert.equal(readFeedback("'Kartoffelsalat' hat 16 Buchstaben, nicht 15").hint, "'Kartoffelsalat' hat 16 Buchstaben, nicht 15");
  assert.equal(correctionHint('Merci, mais la réunion est mardi, pas lundi.', 'fr'), 'la réunion est mardi, pas lundi.');
  assert.ok(isBareRedo('I said that in my first message.'));
  assert.ok(isBareRedo('Lo dije al principio 🙃'));
  assert.ok(isBareRedo('Tu peux corriger ?'));
  assert.equal(readFeedback('La cena es el viernes, no el jueves. Ya lo dije antes.').hint, 'La cena es el viernes, no el jueves.');
});

test('a trailing clause that gives the reason is not part of the hint', () => {
  assert.equal(withoutTrailingReason('bitte kürzer, das liest keiner.'), 'bitte kürzer');
  assert.equal(withoutTrailingReason("drop the emojis, it's for my boss"), 'drop the emojis');
  assert.equal(withoutTrailingReason("enlève le gras, c'est pour un mail."), 'enlève le gras');
  // A list of what to do keeps its commas.
  assert.equal(withoutTrailingReason('Please use a short, plain tone.'), 'Please use a short, plain tone.');
  assert.equal(readFeedback('Good content, but use metric units, we are in Germany.').hint, 'use metric units');
});

test('a bare request to redo names nothing to change: the stated correction is the hint, or none', () => {
  for (const redo of [
    'Please redo the quantities.',
    'Bitte nochmal rechnen.',
    "Refais le calcul s'il te plaît.",
    'Vuelve a calcularlo, por favor.',
    '重新算一下。',
    '計算し直してください。',
  ])
    assert.ok(isBareRedo(redo), redo);
  for (const change of ['Please redo it in French.', 'Redo the table with totals.', 'Bitte nochmal ohne Emojis.', '请用中文重新写。'])
    assert.ok(!isBareRedo(change), change);
  assert.equal(mergeHints('Please redo the quantities.', "It's 12 guests, not 10."), "It's 12 guests, not 10.");
  assert.equal(mergeHints('Do it again please.', null), null);
  assert.equal(readFeedback('Wir sind 8 Leute, nicht 6. Bitte nochmal rechnen.').hint, 'Wir sind 8 Leute, nicht 6.');
  assert.equal(readFeedback('参加者は5人じゃなくて6人です。計算し直してください。').hint, '参加者は5人じゃなくて6人です。');
});

test('replies about something else, deferrals and disbelief in any language', () => {
  const score = (t: string) => readFeedback(t).score;
  assert.equal(score('Ay perdón, me equivoqué de chat.'), 0);
  assert.equal(score('Ah pardon, mauvaise fenêtre.'), 0);
  assert.equal(score('hang on, my kid is calling me, brb'), 0);
  assert.equal(score("Haven't had a chance to run it yet."), 0);
  assert.equal(score('你确定？北京到上海高铁要十个小时？'), -1);
  assert.equal(score('¿Por qué me devuelve undefined?'), -1);
});

test('tool output that only shows data is information; stated fixes are quoted', () => {
  const read = (t: string) => {
    const v = classifyNextState({ role: 'tool', content: t });
    return [v.score, v.hint];
  };
  assert.deepEqual(read('REPOSITORY   TAG       IMAGE ID       CREATED       SIZE'), [0, null]);
  assert.deepEqual(read('a1b2c3d Bump version to 2.3.1\n9f8e7d6 Fix typo'), [0, null]);
  assert.deepEqual(read('total 24\n-rw-r--r-- 1 me me 220 Jan 1 README.md'), [0, null]);
  assert.deepEqual(read('Passed!  - Failed:     0, Passed:    57, Skipped:     0, Total:    57'), [1, null]);
  assert.deepEqual(read('Found 6 errors (6 fixed, 0 remaining).'), [1, null]);
  assert.deepEqual(read('Usage: sitegen build [OPTIONS]\n\nError: No such option: --output-dir Did you mean --out-dir?'), [
    -1,
    'Did you mean --out-dir?',
  ]);
  assert.deepEqual(
    read(
      'fatal: The current branch feature/x has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin feature/x',
    ),
    [-1, 'git push --set-upstream origin feature/x'],
  );
});

test('the classifier trains deterministically and only overrules the rules when sure', () => {
  const ex = (text: string, score: ReplyScore) => ({
    text,
    score,
    lang: 'en',
    reading: { score: 0 as const, hint: null, cues: [] },
  });
  const data = [
    ex('meh whatever', -1),
    ex('meh no', -1),
    ex('lovely thanks', 1),
    ex('lovely work', 1),
    ex('ok noted', 0),
    ex('ok sure', 0),
  ];
  const a = trainReplyModel(data);
  assert.deepEqual(a, trainReplyModel(data));
  const feats = (t: string) => replyFeatures(t, { score: 0, hint: null, cues: [] }, 'en');
  assert.equal(predictScore(a, feats('meh')).score, -1);
  assert.equal(predictScore(a, feats('lovely')).score, 1);
  // With the committed model: a structural complaint stays −1 whatever the words around it.
  assert.equal(readFeedback('My teacher would spot the formatting instantly, not good. Do it again.').score, -1);
  assert.equal(readFeedback('Wonderful, my students will understand this.').score, 1);
});

test('a fact stated without a cue in ja/zh/de is the hint of a failure; praise and complaints are not facts', () => {
  assert.equal(correctionHint('違います、ポートは8080です', 'ja'), 'ポートは8080です');
  assert.equal(correctionHint('消費税は8%なので、合計が違います。', 'ja'), '消費税は8%');
  assert.equal(correctionHint('不对，珠峰比乔戈里峰高，不是矮。', 'zh'), '珠峰比乔戈里峰高');
  assert.equal(correctionHint('17乘3等于51，你算错了', 'zh'), '17乘3等于51');
  assert.equal(correctionHint('Nein, die Hauptstadt von Kanada ist Ottawa.', 'de'), 'die Hauptstadt von Kanada ist Ottawa');
  assert.equal(correctionHint('Está bien, pero en una tabla.', 'es'), null);
});

test('"it\'s `X`, not `Y`" and a single sentence stating a fact are corrections', () => {
  assert.equal(
    correctionHint("it's `git switch -c`, not `git checkout`. checkout does too much", 'en'),
    "it's `git switch -c`, not `git checkout`.",
  );
  assert.equal(correctionHint('the ticket says Friday the 9th', 'en'), 'the ticket says Friday the 9th');
});

test('round 5, third pass: "you need X", "expected X, got Y", "…, es muss X sein", zh "忘了 X", contrasts with paths', () => {
  assert.equal(
    correctionHint('no, helm says unknown flag. you need helm upgrade --install for that', 'en'),
    'you need helm upgrade --install for that',
  );
  assert.equal(correctionHint('It builds but the result is off for 4: expected 24, got 6', 'en'), 'expected 24, got 6');
  assert.equal(correctionHint('Du summierst die falsche Spalte, es muss betrag sein', 'de'), 'es muss betrag sein');
  assert.equal(correctionHint('为什么返回空？函数里忘了 return 吧', 'zh'), '忘了 return 吧');
  assert.equal(correctionHint('Still 404. Also the route is /v2/items, not /items', 'en'), 'Also the route is /v2/items, not /items');
});

test('round 6: a bare "X not Y", "I\'m on X", es "tienen que"/"prueba con", de "X fehlt", zh "也要支持", ja "…って言った"', () => {
  assert.equal(correctionHint("wrong table, it's /api/invoices not /api/bills", 'en'), "it's /api/invoices not /api/bills");
  assert.equal(correctionHint('again, return JSON not XML. third time now', 'en'), 'return JSON not XML.');
  assert.equal(correctionHint('nah, it does not compile', 'en'), null, 'an auxiliary before "not" says what is wrong');
  assert.equal(correctionHint("doesn't help, I'm on Fedora 39", 'en'), "I'm on Fedora 39");
  assert.equal(
    correctionHint('Bien, pero los montos tienen que ir con dos decimales', 'es'),
    'Bien, pero los montos tienen que ir con dos decimales',
  );
  assert.equal(correctionHint('sigue fallando. prueba con un timeout más largo', 'es'), 'prueba con un timeout más largo');
  assert.equal(correctionHint('Die Validierung der Postleitzahl fehlt.', 'de'), 'Die Validierung der Postleitzahl fehlt.');
  assert.equal(correctionHint('还是不行。带小数点的金额也要支持。', 'zh'), '带小数点的金额也要支持。');
  assert.equal(correctionHint('違う。TypeScriptで書いてって言ったよね', 'ja'), 'TypeScriptで書いて');
  assert.equal(correctionHint('I asked for a sonnet, this one has nine lines', 'en'), 'I asked for a sonnet', 'not what came instead');
  assert.equal(correctionHint('I said metric, not imperial', 'en'), 'I said metric, not imperial');
  assert.equal(correctionHint('nice layout, but redis needs a password or anyone can read it', 'en'), 'redis needs a password');
  assert.equal(correctionHint('it accepts 31/02 too. days only go to 28 in february', 'en'), 'days only go to 28 in february');
  assert.equal(correctionHint("don't use any libraries, plain JS only", 'en'), null, 'an instruction is not a stated fact');
  assert.equal(correctionHint('it double counts refunds. needs a WHERE status = paid', 'en'), 'needs a WHERE status = paid');
  assert.equal(correctionHint('nice tests but we use pytest fixtures here, pls redo', 'en'), 'we use pytest fixtures here, pls redo');
  assert.equal(correctionHint('wrong total. 4 x 25 + 10 = 110', 'en'), '4 x 25 + 10 = 110');
  assert.equal(correctionHint('Stimmt nicht, es müssten 12 Stunden sein', 'de'), 'es müssten 12 Stunden sein');
  assert.equal(correctionHint('te falta el parámetro page, por eso sale vacío', 'es'), 'te falta el parámetro page, por eso sale vacío');
  assert.equal(correctionHint('es muy formal, ponlo en tono de amigos', 'es'), 'ponlo en tono de amigos');
  assert.equal(correctionHint('我让你写五条，你才写了三条', 'zh'), '我让你写五条，你才写了三条');
  assert.equal(correctionHint('INNER JOINじゃないと重複しますよ', 'ja'), 'INNER JOIN');
  assert.equal(
    correctionHint('Passt, aber bitte ohne Lodash, das nutzen wir nicht mehr', 'de'),
    'bitte ohne Lodash, das nutzen wir nicht mehr',
  );
});

test('round 6: a meta complaint ("read my message again", "answer the question") names nothing to change', () => {
  assert.equal(isBareRedo('read my message again.'), true);
  assert.equal(isBareRedo('can you please actually answer the question?'), true);
  assert.equal(mergeHints('read the question again', 'I said no external libraries'), 'I said no external libraries');
});

test('round 7: es "falta X", "the X needs to be Y", "for X use Y", "it\'s ~/…", a bare contrast inside a clause, not "we\'re a Y not a Z"', () => {
  assert.equal(correctionHint('¿por qué salen repetidos? falta un GROUP BY', 'es'), 'falta un GROUP BY');
  assert.equal(
    correctionHint('Good start but the field needs to be UNIQUE, otherwise duplicates slip in', 'en'),
    'the field needs to be UNIQUE, otherwise duplicates slip in',
  );
  assert.equal(correctionHint('nope, that broke main. for release branches use cherry-pick', 'en'), 'use cherry-pick');
  assert.equal(correctionHint("there's no ~/.vimrc there. it's ~/.config/nvim/init.lua", 'en'), "it's ~/.config/nvim/init.lua");
  assert.equal(correctionHint('ugh. delimiter="|" not tab, the file is german', 'en'), 'delimiter="|" not tab');
  assert.equal(correctionHint("too stiff. sound like a person, we're a two-person shop not a law firm", 'en'), null);
  assert.equal(correctionHint('rmじゃなくてtrashコマンド使ってって言いましたよね…', 'ja'), 'rmじゃなくてtrashコマンド使って');
});

test('round 8: "X is missing Y", "where\'s the X?", "X is what I needed", fr bare "faut", ja "…もあるんですけど…"', () => {
  assert.equal(
    correctionHint('the cron never fires. pretty sure the crontab is missing a newline at the end', 'en'),
    'a newline at the end',
  );
  assert.equal(correctionHint("where's the summary table? that was the whole point", 'en'), "where's the summary table?");
  assert.equal(correctionHint('utf-8-sig is what I needed, excel still shows garbage', 'en'), 'utf-8-sig');
  assert.equal(correctionHint("ça plante toujours. faut vider le cache d'abord", 'fr'), "faut vider le cache d'abord");
  assert.equal(
    correctionHint('送料無料じゃなくて送料500円の地域もあるんですけど…考慮してないですよね', 'ja'),
    '送料無料じゃなくて送料500円の地域もある',
  );
});
