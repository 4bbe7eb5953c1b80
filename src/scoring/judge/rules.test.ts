import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeReply } from '../rules-reader/index.ts';
import { classifyNextState, runRulesHintJudge, runRulesPrmJudge } from './rules.ts';
import type { JudgedNextState, JudgedTurnInput } from '../types.ts';

const user = (content: JudgedNextState['content']): JudgedNextState => ({ role: 'user', content });
const tool = (content: string): JudgedNextState => ({ role: 'tool', content });
const score = (next: JudgedNextState) => classifyNextState(next).score;

test('English user cues: thanks/great/perfect → +1, wrong/redo/try again/not what I → −1, else 0', () => {
  assert.equal(score(user('Thanks, that is perfect!')), 1);
  assert.equal(score(user('Great, works now.')), 1);
  assert.equal(score(user("That's wrong.")), -1);
  assert.equal(score(user('Please redo the table.')), -1);
  assert.equal(score(user('Try again with the other file.')), -1);
  assert.equal(score(user('This is not what I asked for')), -1);
  assert.equal(score(user('Thanks, but it is still wrong')), -1, 'negative beats positive');
  assert.equal(score(user('What time is it in Tokyo?')), 0);
  assert.equal(score(user('')), 0);
});

test('Chinese user cues: 谢谢/好的 → +1, 不对/重新/错了 → −1', () => {
  assert.equal(score(user('谢谢！')), 1);
  assert.equal(score(user('好的，明白了')), 1);
  assert.equal(score(user('不对，这个数字算错了')), -1);
  assert.equal(score(user('请重新写一遍')), -1);
  assert.equal(score(user('错了')), -1);
});

test('content lists and the OpenClaw internal context block are handled', () => {
  const next = user([
    { type: 'text', text: 'Thanks!' },
    { type: 'text', text: '<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>> error: wrong retry <<<END_OPENCLAW_INTERNAL_CONTEXT>>>' },
  ]);
  assert.equal(score(next), 1);
});

test('tool outputs: errors → −1, anything else → +1', () => {
  assert.equal(score(tool('Traceback (most recent call last):\n  File "x.py"')), -1);
  assert.equal(score(tool('ValueError: invalid literal')), -1);
  assert.equal(score(tool('Command failed')), -1);
  assert.equal(score(tool('process exited with code 2')), -1);
  assert.equal(score(tool('{"exit_code": 1, "stdout": ""}')), -1);
  assert.equal(score(tool('文件读取错误')), -1);
  assert.equal(score(tool('copied 2 files to backup/')), 1);
  // A bare listing of file names only shows data (information, 0), like `ls`.
  assert.equal(score(tool('a.txt\nb.txt')), 0);
  assert.equal(score(tool('{"exit_code": 0, "stdout": "ok"}')), 1);
  assert.equal(score(tool('Build finished with 0 errors')), 1);
  assert.equal(classifyNextState(tool('error')).hint, null, 'tool outputs give no hint');
});

test('explicit corrections become hints (the correction sentences, trimmed)', () => {
  const v = classifyNextState(user('Hmm.   You should use metric units.  And the chart looks odd'));
  assert.equal(v.score, -1);
  assert.equal(v.hint, 'You should use metric units.');

  assert.equal(
    classifyNextState(user("Don't use global variables. Use a class instead.")).hint,
    "Don't use global variables. Use a class instead.",
  );
  assert.equal(classifyNextState(user('Do not delete files without asking.')).hint, 'Do not delete files without asking.');
  assert.equal(classifyNextState(user('不要用全局变量。请改用类。')).hint, '不要用全局变量。 请改用类。');
  assert.equal(classifyNextState(user('Please answer in French.')).hint, 'Please answer in French.');
  assert.equal(classifyNextState(user('请用中文回答')).hint, '请用中文回答');
});

test('thanks with a wish for next time accepts the answer (+1) and keeps the wish as the hint; a change to this answer is −1', () => {
  assert.deepEqual(
    [
      classifyNextState(user('Great! Just one thing: rename the file to main.py.')).score,
      classifyNextState(user('Great! Just one thing: rename the file to main.py.')).hint,
    ],
    [-1, 'rename the file to main.py.'],
  );
  const v = classifyNextState(user('Thanks! Next time use pnpm instead of npm.'));
  assert.equal(v.score, 1);
  assert.equal(v.hint, 'Next time use pnpm instead of npm.');
});

test('a polite request after thanks is a new task, not a correction', () => {
  const v = classifyNextState(user('Thanks! Please now write the tests.'));
  assert.equal(v.score, 1);
  assert.equal(v.hint, null);
});

const turn = (nextState: JudgedNextState): JudgedTurnInput => ({
  promptMessages: [{ role: 'user', content: 'Convert 3 miles.' }],
  responseText: 'About 3 miles.',
  responseToolCalls: [],
  nextState,
});

test('rules PRM runner: m identical votes in the model-judge shape', async () => {
  const r = await runRulesPrmJudge(turn(user('Wrong, try again')), { m: 3 });
  assert.equal(r.score, -1);
  assert.deepEqual(r.votes, [-1, -1, -1]);
  assert.equal(r.provider, 'rules');
  assert.deepEqual(r.outcome, { score: -1, valid: 3, failed: 0, reason: 'majority', confidence: 1 });
  assert.equal(r.details.length, 3);
  assert.match(r.details[0].raw ?? '', /\\boxed\{-1\}/);
  assert.equal(r.details[0].error, null);
});

test('rules hint runner: +1 votes with the correction as hint, or −1 votes and no hint', async () => {
  const yes = await runRulesHintJudge(turn(user('You should convert to kilometres.')), { m: 2 });
  assert.deepEqual(yes.votes, [1, 1]);
  assert.equal(yes.hint, 'You should convert to kilometres.');
  assert.equal(yes.selection.eligible, 2);

  const no = await runRulesHintJudge(turn(user('Thanks!')), { m: 3 });
  assert.deepEqual(no.votes, [-1, -1, -1]);
  assert.equal(no.hint, null);

  const tooShort = await runRulesHintJudge(turn(user("Don't.")), { m: 1 });
  assert.deepEqual(tooShort.votes, [1]);
  assert.equal(tooShort.hint, null, 'hints of 10 characters or fewer are not accepted');
});

test('min_confidence: praise beside a contrast or an eye-roll scores 0 (low_confidence) and the record says why', async () => {
  const doubted = await runRulesPrmJudge(turn(user('Perfect, thanks so much 🙃')), { m: 3, minConfidence: 0.5 });
  assert.equal(doubted.score, 0);
  assert.equal(doubted.outcome.reason, 'low_confidence');
  assert.ok(doubted.outcome.confidence < 0.5);
  assert.match(doubted.details[0].raw ?? '', /sarcasm marker/);
  const contrast = await runRulesPrmJudge(turn(user('nice one, though the font feels a bit heavy')), { m: 3, minConfidence: 0.5 });
  assert.deepEqual([contrast.score, contrast.outcome.reason], [0, 'low_confidence']);
  assert.match(contrast.details[0].raw ?? '', /contrast after praise/);
  // Thanks, a "but" and a number in the same message: the fix of this answer it is, not a doubt.
  assert.equal(score(user('Thanks! but why does it say 3pm?')), -1);
  // A second thought that corrects the answer is read as the failure it is, not doubted.
  assert.equal(score(user('love it! wait, the 14th not the 15th')), -1);
  assert.equal(score(user('gracias!\nah no espera, es mesa para 6 no para 4')), -1);
  // Without a minimum the same reading votes its sign; a plain thanks is sure either way.
  assert.equal((await runRulesPrmJudge(turn(user('Perfect, thanks so much 🙃')), { m: 3 })).score, 1);
  const sure = await runRulesPrmJudge(turn(user('Thanks, that worked!')), { m: 3, minConfidence: 0.5 });
  assert.deepEqual([sure.score, sure.outcome.confidence], [1, 1]);
});

test('languages beyond the first six are read; a script no reader knows gets 0 with its reason', () => {
  assert.equal(score(user('고마워요 완전 좋아요')), 1);
  assert.equal(score(user('опять не то, я же просил на пятницу')), -1);
  assert.equal(score(user('obrigado, ficou ótimo')), 1);
  assert.equal(score(user('non funziona niente')), -1);
  assert.equal(score(user('yine olmadı')), -1);
  assert.equal(score(user('شكرا جزيلا')), 1);
  assert.equal(score(user('yaar ye toh galat hai, kal ka booking chahiye tha')), -1);
  const hebrew = classifyNextState(user('תודה רבה'));
  assert.deepEqual([hebrew.score, hebrew.cues], [0, ['language not read']]);
});

test('stickers and reactions say what their picture says; giving up is a failure', () => {
  assert.equal(score(user('[sticker: cat thumbs up]')), 1);
  assert.equal(score(user('[スタンプ: うさぎがOKしている]')), 1);
  assert.equal(score(user('Reacted 👍 to "Booked for 7pm"')), 1);
  assert.equal(score(user('[sticker: angry duck]')), -1);
  assert.equal(score(user('🙈')), 0);
  assert.equal(score(user('ya déjalo, lo hago yo')), -1);
  assert.equal(score(user("süper, şimdi Ayşe'yi de ekle")), 1, 'praise, then more work on a result that stands');
});

test('second thoughts and stated swaps after thanks are failures, in any language; a request to go ahead after praise accepts', () => {
  assert.equal(score(user("merci\nah non c'est dimanche en fait")), -1);
  assert.equal(score(user('ありがとう\nあ、ごめん6/21だった')), -1);
  assert.equal(score(user('danke dir!\nach so, die Wohnungsnummer ist 14b nicht 14')), -1);
  assert.equal(score(user('спасибо!\nой стоп, у Димы среда, а не четверг')), -1);
  assert.equal(score(user('와 대박 ㅋㅋ 강남점이 아니라 강릉점으로 예약했네')), -1);
  assert.equal(score(user('I asked you to COMPARE the two offers I sent')), -1);
  assert.equal(score(user('ja genau so machen wir das, buch das bitte')), 1);
  assert.equal(score(user('mast hai! bas thoda chhota kar do')), -1, 'praise, then a change to this answer');
  // A wish for later keeps its +1 even with a number in it.
  assert.equal(score(user('top! la prossima volta però mettilo alle 21 di default')), 1);
});

test('a reported non-delivery, cancellation or refusal is a failure; reactions in Russian and Arabic read their picture', () => {
  assert.equal(score(user("the invite never arrived, she didn't get the invitation at all")), -1);
  assert.equal(score(user('die SMS kam gar nicht an')), -1);
  assert.equal(score(user('они отменили бронь, письмо только что пришло')), -1);
  assert.equal(score(user('ordine annullato, dice che il pagamento è stato rifiutato')), -1);
  assert.equal(score(user('妈妈说还是没收到短信')), -1);
  assert.equal(score(user("I didn't get any errors this time")), 1, 'no error is not a missing delivery');
  assert.equal(score(user('Отреагировала 👍 на ваше сообщение')), 1);
  assert.equal(score(user('تفاعل بـ 👍 على رسالتك')), 1);
  assert.equal(score(user('спасибо!\nа, стоп, не в среду, а в четверг')), -1);
  assert.equal(score(user('我问了，她不是晚上吃药所以九点是对的，谢谢')), 1, 'a confirmed value is not a swap');
});

test('picking one of the offered options builds on the answer; an eye-roll beside words is sarcasm; applause after a report is doubted', () => {
  assert.equal(score(user('ok take the second one, the one with parking')), 1);
  assert.equal(score(user('prendi la seconda, quella vicino alla stazione')), 1);
  assert.equal(score(user('no, take the second one')), -1, 'a "no" first corrects the choice');
  assert.equal(score(user('super. der Termin ist jetzt mitten in meiner Schicht 🙄')), -1);
});

test('applause after a report of what was done is never read as praise: the rules doubt it, the classifier may read it as sarcasm', async () => {
  const text = 'great, you booked the hotel by the airport for my sister 👏 thanks';
  const rules = judgeReply(text, {}, null);
  assert.ok(rules.confidence < 0.5);
  assert.deepEqual(rules.doubts, ['applause beside a report']);
  const clap = await runRulesPrmJudge(turn(user(text)), { m: 3, minConfidence: 0.5 });
  assert.notEqual(clap.score, 1);
  assert.equal(score(user('👏👏')), 1, 'applause alone is praise');
});

test('round 9: wishes for later in de/es/zh keep +1; WeChat codes and tag-first stickers read their picture; a command not delivered and a minimum order fail', () => {
  assert.equal(score(user('super. künftig bitte als PDF statt Word')), 1);
  assert.equal(score(user('很好 下次把地址也写上')), 1);
  assert.equal(score(user('[强]')), 1);
  assert.equal(score(user('[弱][弱]')), -1);
  assert.equal(score(user('[스티커] 엄지척 하는 곰')), 1);
  assert.equal(score(tool('{"device": "plug-3", "result": "COMMAND_NOT_DELIVERED"}')), -1);
  assert.equal(score(tool('Your basket is €18.00. The minimum order is €25.00.')), -1);
});

test('a lookup tool returns information, not a success: by the tool name the answer called; its failures still fail', async () => {
  const lookup = (content: string, name: string): JudgedTurnInput => ({
    promptMessages: [{ role: 'user', content: 'Any vegan bakery near Kreuzberg?' }],
    responseText: '',
    responseToolCalls: [{ type: 'function', function: { name, arguments: '{}' } }],
    nextState: { role: 'tool', content },
  });
  const page = 'Ergebnisse für „vegane Bäckerei Kreuzberg“\nBrammibal’s Donuts · 4,7 ★ · Geöffnet\nLeckerback · 4,5 ★ · Geöffnet';
  assert.equal((await runRulesPrmJudge(lookup('{"id": "evt_81", "status": "confirmed"}', 'web_search'), { m: 1 })).score, 0);
  assert.equal((await runRulesPrmJudge(lookup('{"id": "evt_81", "status": "confirmed"}', 'calendar.create_event'), { m: 1 })).score, 1);
  assert.equal((await runRulesPrmJudge(lookup(page, 'places.search'), { m: 1 })).score, 0);
  assert.equal((await runRulesPrmJudge(lookup('HTTP/1.1 503 Service Unavailable', 'places.search'), { m: 1 })).score, -1);
});

test('a second thought carries its correction as the hint', () => {
  const v = classifyNextState(user("ok thanks\nwait no it's 45 centerpieces, they added a table"));
  assert.equal(v.score, -1);
  assert.match(v.hint ?? '', /45 centerpieces/);
  assert.match(classifyNextState(user('danke dir!\nach so, die Wohnungsnummer ist 14b nicht 14')).hint ?? '', /14b nicht 14/);
});
