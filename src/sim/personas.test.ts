import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../engines/embedded/rng.ts';
import { OpenClawError } from '../errors/index.ts';
import { classifyNextState, runRulesHintJudge, runRulesPrmJudge } from '../scoring/index.ts';
import type { StyleName } from '../pretrain/index.ts';
import { COMPLAINT_OPENERS, CORRECTIONS, NO_ANSWER_OPENERS, REDO_REQUESTS, REPEAT_OPENERS, THANKS_REPLIES } from './phrases.ts';
import { PERSONAS, PERSONA_NAMES, createPersona, type PersonaName } from './personas.ts';

const MARKDOWN = 'Cooking pasta takes a few steps.\n1. **Boil water.** Use a large pot.\n2. **Add the pasta.** Stir it once.';
const PLAIN_SHORT = 'Boil salted water, cook the pasta for about ten minutes, then drain it.';
const PLAIN_LONG =
  'Cooking pasta well takes only a few simple steps. First, boil plenty of water with a good pinch of salt. Then add the pasta and stir it once. Finally, drain it and mix it with the sauce while it is still hot.';
const CASUAL = "Hey! It's super easy, you just boil the water and toss the pasta in.";
const LOWER = 'boil salted water, cook the pasta for about ten minutes, then drain it.';
const SIGNOFF = 'Boil salted water and cook the pasta for about ten minutes.\nHope this helps! 😊';

// Expected rating per persona, worked out by hand from the detectors' rules (styles.ts).
const CASES: Array<[string, string, Record<PersonaName, 0 | 1>]> = [
  ['markdown list', MARKDOWN, { 'no-markdown': 0, terse: 1, casual: 0, lowercase: 0, 'friendly-signoff': 0 }],
  ['short formal prose', PLAIN_SHORT, { 'no-markdown': 1, terse: 1, casual: 0, lowercase: 0, 'friendly-signoff': 0 }],
  ['long formal prose (41 words)', PLAIN_LONG, { 'no-markdown': 1, terse: 0, casual: 0, lowercase: 0, 'friendly-signoff': 0 }],
  ['casual', CASUAL, { 'no-markdown': 1, terse: 1, casual: 1, lowercase: 0, 'friendly-signoff': 0 }],
  ['lowercase', LOWER, { 'no-markdown': 1, terse: 1, casual: 0, lowercase: 1, 'friendly-signoff': 0 }],
  ['sign-off line with emoji (its "!" is not in the body, so not casual)', SIGNOFF, { 'no-markdown': 1, terse: 1, casual: 0, lowercase: 0, 'friendly-signoff': 1 }],
  ['empty answer', '', { 'no-markdown': 0, terse: 0, casual: 0, lowercase: 0, 'friendly-signoff': 0 }],
  ['two words', 'ok sure', { 'no-markdown': 0, terse: 0, casual: 0, lowercase: 0, 'friendly-signoff': 0 }],
];

test('every persona rates hand-written answers by its own style only', () => {
  for (const [label, answer, expected] of CASES) {
    for (const name of PERSONA_NAMES) assert.equal(PERSONAS[name].rate(answer), expected[name], `${name} on ${label}`);
  }
});

test('five personas on five different dimensions', () => {
  assert.deepEqual(
    PERSONA_NAMES.map((n) => PERSONAS[n].style),
    ['markdown', 'terse', 'casual', 'lowercase', 'signoff'],
  );
  for (const n of PERSONA_NAMES) assert.ok(PERSONAS[n].description.length > 20, n);
});

const verdict = (text: string) => classifyNextState({ role: 'user', content: text });

const STYLE_WORDS: Record<StyleName, RegExp> = {
  markdown: /markdown|list|bold|plain|prose|sentences/i,
  terse: /brief|short|one sentence/i,
  casual: /casual|formal|friend/i,
  lowercase: /lowercase|capital/i,
  signoff: /sign-off/i,
};

test('phrase lists: thanks → +1 without hint; every complaint → −1; a correction is the whole hint and names the style', () => {
  for (const text of THANKS_REPLIES) assert.deepEqual([verdict(text).score, verdict(text).hint], [1, null], text);
  for (const style of Object.keys(CORRECTIONS) as StyleName[]) {
    for (const opener of [...COMPLAINT_OPENERS[style], ...REPEAT_OPENERS, ...NO_ANSWER_OPENERS]) {
      for (const redo of REDO_REQUESTS) {
        const vague = verdict(`${opener} ${redo}`);
        assert.deepEqual([vague.score, vague.hint], [-1, null], `${opener} ${redo}`);
        for (const correction of CORRECTIONS[style]) {
          const v = verdict(`${opener} ${redo} ${correction}`);
          assert.deepEqual([v.score, v.hint], [-1, correction], `${opener} ${redo} ${correction}`);
          assert.match(correction, STYLE_WORDS[style]);
          assert.ok(correction.length > 10, `longer than min_hint_chars: ${correction}`);
        }
      }
    }
  }
});

const turn = (reply: string) => ({ promptMessages: [{ role: 'user', content: 'How do I cook pasta?' }], responseText: MARKDOWN, responseToolCalls: [], nextState: { role: 'user' as const, content: reply } });

test('persona replies through the rules judges: satisfied +1, unsatisfied −1, corrections become accepted hints', async () => {
  const rng = new Rng(7);
  for (const name of PERSONA_NAMES) {
    const p = PERSONAS[name];
    const good = [PLAIN_SHORT, CASUAL, LOWER, SIGNOFF, PLAIN_LONG].find((a) => p.rate(a) === 1)!;
    const bad = [MARKDOWN, PLAIN_LONG, PLAIN_SHORT].find((a) => p.rate(a) === 0)!;
    let corrections = 0;
    for (let i = 0; i < 30; i++) {
      const thanks = p.respond(good, rng, 1);
      assert.equal(thanks.satisfied, true);
      assert.equal((await runRulesPrmJudge(turn(thanks.text))).score, 1, `${name}: ${thanks.text}`);
      assert.equal((await runRulesHintJudge(turn(thanks.text))).hint, null);

      const complaint = p.respond(bad, rng, 1);
      assert.equal(complaint.satisfied, false);
      assert.equal((await runRulesPrmJudge(turn(complaint.text))).score, -1, `${name}: ${complaint.text}`);
      const hint = (await runRulesHintJudge(turn(complaint.text))).hint;
      if (complaint.correction === null) assert.equal(hint, null, complaint.text);
      else {
        corrections++;
        assert.equal(hint, complaint.correction);
        assert.match(hint ?? '', STYLE_WORDS[p.style], `${name}'s hint names its style`);
        assert.ok(complaint.text.endsWith(complaint.correction));
      }
    }
    assert.ok(corrections > 0 && corrections < 30, `${name}: some complaints are concrete, some are not (${corrections}/30)`);
  }
});

test('correction frequency follows the persona rate and grows with each failed attempt', () => {
  const p = createPersona('terse', { correctionRate: 0.5 });
  const share = (attempt: number) => {
    const rng = new Rng(123);
    let n = 0;
    for (let i = 0; i < 2000; i++) if (p.respond(PLAIN_LONG, rng, attempt).correction !== null) n++;
    return n / 2000;
  };
  assert.ok(Math.abs(share(1) - 0.5) < 0.04, `attempt 1: ${share(1)}`);
  assert.ok(Math.abs(share(2) - 0.7) < 0.04, `attempt 2: ${share(2)}`);
  assert.equal(share(4), 1, 'attempt 4: 0.5 + 3 × 0.2 ≥ 1');
  const never = createPersona('terse', { correctionRate: 0 });
  const rng = new Rng(1);
  for (let i = 0; i < 200; i++) assert.equal(never.respond(PLAIN_LONG, rng, 1).correction, null);
});

test('later attempts and non-answers use their own openers', () => {
  const p = PERSONAS['no-markdown'];
  const rng = new Rng(3);
  for (let i = 0; i < 20; i++) {
    const [again, empty, first] = [p.reply(MARKDOWN, rng, 2), p.reply('', rng, 1), p.reply(MARKDOWN, rng, 1)];
    assert.ok(REPEAT_OPENERS.some((o) => again.startsWith(`${o} `)), again);
    assert.ok(NO_ANSWER_OPENERS.some((o) => empty.startsWith(`${o} `)), empty);
    assert.ok(COMPLAINT_OPENERS.markdown.some((o) => first.startsWith(`${o} `)), first);
  }
});

test('replies are deterministic given the seed', () => {
  const run = (seed: number) => {
    const rng = new Rng(seed);
    return PERSONA_NAMES.flatMap((n) => [MARKDOWN, PLAIN_SHORT, LOWER, PLAIN_LONG].map((a, i) => PERSONAS[n].reply(a, rng, 1 + (i % 3))));
  };
  assert.deepEqual(run(42), run(42));
  assert.notDeepEqual(run(42), run(43));
});

test('bad persona names and arguments are explained', () => {
  assert.throws(() => createPersona('pirate'), (e: unknown) => e instanceof OpenClawError && /unknown persona 'pirate'.*no-markdown, terse, casual, lowercase, friendly-signoff/.test(e.message));
  assert.throws(() => createPersona('terse', { correctionRate: 1.5 }), /correctionRate must be in \[0, 1\]/);
  assert.throws(() => PERSONAS.terse.reply(PLAIN_LONG, new Rng(1), 0), /attempt must be an integer ≥ 1/);
});
