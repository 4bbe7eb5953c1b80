import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../rl/index.ts';
import { OpenClawError } from '../errors/index.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJudgeSet } from '../../bench/judge-metrics.ts';
import { classifyNextState, runRulesHintJudge, runRulesPrmJudge } from '../scoring/index.ts';
import { RULE_EXAMPLES, judgeCueWords } from '../scoring/rules-reader/index.ts';
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
  [
    'sign-off line with emoji (its "!" is not in the body, so not casual)',
    SIGNOFF,
    { 'no-markdown': 1, terse: 1, casual: 0, lowercase: 0, 'friendly-signoff': 1 },
  ],
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

// Each correction names what its persona wants, in some words (English or Chinese).
const STYLE_WORDS: Record<StyleName, RegExp> = {
  markdown: /markdown|list|bold|plain|prose|sentences|paragraph|bullet|列表|段落/i,
  terse: /brief|short|sentence|gist|words|简短/i,
  casual: /casual|formal|friend|chatty|relaxed|laid-back|随意/i,
  lowercase: /lowercase|capital|small letters|小写/i,
  signoff: /sign-off|sign off|goodbye|closing|表情/i,
};

const OPENERS = (style: StyleName) => [...COMPLAINT_OPENERS[style], ...REPEAT_OPENERS, ...NO_ANSWER_OPENERS];

test('phrase pools are large and varied: many phrasings per intent, some Chinese, some emoji', () => {
  const all = [
    ...THANKS_REPLIES,
    ...REDO_REQUESTS,
    ...REPEAT_OPENERS,
    ...NO_ANSWER_OPENERS,
    ...Object.values(COMPLAINT_OPENERS).flat(),
    ...Object.values(CORRECTIONS).flat(),
  ];
  assert.ok(THANKS_REPLIES.length >= 30, `thanks: ${THANKS_REPLIES.length}`);
  assert.ok(REDO_REQUESTS.length >= 10);
  for (const style of Object.keys(CORRECTIONS) as StyleName[]) {
    assert.ok(CORRECTIONS[style].length >= 7, `${style} corrections: ${CORRECTIONS[style].length}`);
    assert.ok(COMPLAINT_OPENERS[style].length >= 5, `${style} openers`);
    assert.ok(
      CORRECTIONS[style].some((c) => /[\u4e00-\u9fff]/.test(c)),
      `${style}: a Chinese correction`,
    );
  }
  assert.equal(new Set(all).size, all.length, 'no phrase repeats');
  assert.ok(all.filter((p) => /[\u4e00-\u9fff]/.test(p)).length >= 15, 'some Chinese');
  assert.ok(all.filter((p) => /\p{Extended_Pictographic}/u.test(p)).length >= 8, 'some emoji');
  const words = all.map((p) => p.split(/\s+/).length);
  assert.ok(Math.min(...words) <= 2 && Math.max(...words) >= 12, 'terse and wordy');
});

const normalise = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

test("no phrase of a pool is one of the judge's cue words, rule examples or evaluation replies", () => {
  const evalSet = ['dev', 'heldout'].flatMap((s) =>
    parseJudgeSet(readFileSync(join(import.meta.dirname, `../../bench/judge-set/${s}.tsv`), 'utf8'), s).map((i) => i.text),
  );
  const examples = Object.values(RULE_EXAMPLES)
    .flat()
    .map((e) => e.text);
  const forbidden = new Set([...judgeCueWords(), ...examples, ...evalSet].map(normalise).filter((w) => w !== ''));
  const pools = [
    ...THANKS_REPLIES,
    ...REDO_REQUESTS,
    ...REPEAT_OPENERS,
    ...NO_ANSWER_OPENERS,
    ...Object.values(COMPLAINT_OPENERS).flat(),
    ...Object.values(CORRECTIONS).flat(),
  ];
  for (const phrase of pools) {
    assert.ok(!forbidden.has(normalise(phrase)), `"${phrase}" is a judge cue, rule example or evaluation reply`);
    // Each sentence of a phrase too: a pool phrase must not be a cue word padded with punctuation.
    for (const sentence of phrase.split(/(?<=[.!?。！？])\s*/))
      assert.ok(!forbidden.has(normalise(sentence)) || normalise(sentence) === '', `"${sentence}" in "${phrase}"`);
  }
});

// The judge may give a vague complaint's own words as a hint ("Way too long, I'm on my phone.")
// and may keep the sentence before a correction with it; it never invents text, and a stated
// correction always reaches the teacher whole.
function assertSpanOf(hint: string | null, text: string): void {
  if (hint !== null) assert.ok(text.includes(hint), `hint "${hint}" is a span of "${text}"`);
}
// The hint may leave out the correction's politeness ("Please", "Just"): what it keeps is the
// correction's own words, most of them.
function assertNamesCorrection(hint: string | null, correction: string, text: string): void {
  const words = (s: string) => s.match(/[\p{L}\p{N}]+/gu) ?? [];
  const whole = hint !== null && text.includes(hint) && (hint.endsWith(correction) || correction.includes(hint));
  assert.ok(whole && words(hint).length * 4 >= words(correction).length * 3, `hint "${hint}" names the correction, in "${text}"`);
}

test('every combination of the pools scores as its intent: thanks +1 without hint; complaints −1; a correction reaches the hint whole and names the style', () => {
  for (const text of THANKS_REPLIES) assert.deepEqual([verdict(text).score, verdict(text).hint], [1, null], text);
  for (const style of Object.keys(CORRECTIONS) as StyleName[]) {
    for (const correction of CORRECTIONS[style]) {
      assert.match(correction, STYLE_WORDS[style]);
      assert.ok(correction.length > 10, `longer than min_hint_chars: ${correction}`);
    }
    for (const opener of OPENERS(style)) {
      for (const redo of [null, ...REDO_REQUESTS]) {
        const complaint = redo === null ? opener : `${opener} ${redo}`;
        const vague = verdict(complaint);
        assert.equal(vague.score, -1, complaint);
        assertSpanOf(vague.hint, complaint);
        for (const correction of CORRECTIONS[style]) {
          const v = verdict(`${complaint} ${correction}`);
          assert.equal(v.score, -1, `${complaint} ${correction}`);
          assertNamesCorrection(v.hint, correction, `${complaint} ${correction}`);
        }
      }
    }
  }
});

const turn = (reply: string) => ({
  promptMessages: [{ role: 'user', content: 'How do I cook pasta?' }],
  responseText: MARKDOWN,
  responseToolCalls: [],
  nextState: { role: 'user' as const, content: reply },
});

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
      if (complaint.correction === null) assertSpanOf(hint, complaint.text);
      else {
        corrections++;
        assertNamesCorrection(hint, complaint.correction, complaint.text);
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
    assert.ok(
      REPEAT_OPENERS.some((o) => again === o || again.startsWith(`${o} `)),
      again,
    );
    assert.ok(
      NO_ANSWER_OPENERS.some((o) => empty === o || empty.startsWith(`${o} `)),
      empty,
    );
    assert.ok(
      COMPLAINT_OPENERS.markdown.some((o) => first === o || first.startsWith(`${o} `)),
      first,
    );
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
  assert.throws(
    () => createPersona('pirate'),
    (e: unknown) =>
      e instanceof OpenClawError && /unknown persona 'pirate'.*no-markdown, terse, casual, lowercase, friendly-signoff/.test(e.message),
  );
  assert.throws(() => createPersona('terse', { correctionRate: 1.5 }), /correctionRate must be in \[0, 1\]/);
  assert.throws(() => PERSONAS.terse.reply(PLAIN_LONG, new Rng(1), 0), /attempt must be an integer ≥ 1/);
});
