import { test } from 'node:test';
import assert from 'node:assert/strict';
import { casualMarkers, detectStyles, hasMinorityStyle, splitSignoff } from './styles.ts';

test('a typical formal markdown answer: markdown, elaborate, formal, normal case, no sign-off', () => {
  const answer =
    'Good sleep needs a routine.\n\n1. **Keep a schedule.** Go to bed at the same time.\n2. **Dim the screens.** Put devices away an hour before bed.\n\nA cool room also helps you fall asleep quickly at night.';
  assert.deepEqual(detectStyles(answer), { markdown: true, terse: false, casual: false, lowercase: false, signoff: false });
});

test('markdown is found from bold alone, from a bullet alone, and from a heading alone', () => {
  assert.equal(detectStyles('Use **salt** in the water.').markdown, true);
  assert.equal(detectStyles('Steps:\n- boil water').markdown, true);
  assert.equal(detectStyles('## Steps\nBoil water.').markdown, true);
  assert.equal(detectStyles('Boil water, then add 2 cups of rice. It takes 15 minutes.').markdown, false);
});

test('terse counts the words of the body and ignores a sign-off line', () => {
  const short = 'Boil salted water, cook the pasta for about ten minutes, then drain it.';
  assert.equal(detectStyles(short).terse, true);
  assert.equal(detectStyles(`${short}\n\nHope this helps! 😊`).terse, true);
  const words26 = Array.from({ length: 26 }, () => 'word').join(' ');
  assert.equal(detectStyles(words26).terse, false);
  assert.equal(detectStyles(Array.from({ length: 25 }, () => 'word').join(' ')).terse, true);
});

test('casual needs two markers in the body; the sign-off exclamation does not count', () => {
  assert.equal(casualMarkers("Hey! It's easy."), 3);
  assert.equal(detectStyles("Hey! It's easy, just boil it.").casual, true);
  assert.equal(detectStyles('Boil the water first.\n\nHope this helps! 😊').casual, false);
  assert.equal(detectStyles('Boil the water first! Then drain it.').casual, false, 'one marker is not enough');
  assert.equal(detectStyles("Don't stir it! Wait.").casual, true);
});

test('lowercase means letters and no upper-case letter anywhere', () => {
  assert.equal(detectStyles('boil the water, then add the pasta.').lowercase, true);
  assert.equal(detectStyles('boil the water, then add the Pasta.').lowercase, false);
  assert.equal(detectStyles('123 !!!').lowercase, false);
});

test('sign-off: a short last line with an emoji', () => {
  assert.equal(detectStyles('Drain it.\n\nGood luck! 🍀').signoff, true);
  assert.equal(detectStyles('Drain it. Enjoy! ✨').signoff, true, 'a one-line answer ending in an emoji counts as its own sign-off');
  assert.equal(detectStyles('Drain it.\n\nGood luck!').signoff, false, 'no emoji');
  assert.equal(detectStyles('Drain it.\n\nThis is a long closing line with far too many words to be a sign-off 😊').signoff, false);
  assert.deepEqual(splitSignoff('Drain it.\n\nEnjoy! ✨'), { body: 'Drain it.', signoff: 'Enjoy! ✨' });
});

test('hasMinorityStyle: plain prose is the minority of markdown, true is the minority of the others', () => {
  const s = detectStyles('just boil it, it is easy.');
  assert.equal(hasMinorityStyle(s, 'markdown'), true);
  assert.equal(hasMinorityStyle(s, 'terse'), true);
  assert.equal(hasMinorityStyle(s, 'lowercase'), true);
  assert.equal(hasMinorityStyle(s, 'signoff'), false);
});
