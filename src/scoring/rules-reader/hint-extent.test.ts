// How much of a reply the hint quotes (hint-extent.ts). Examples written for these tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tightenHint } from './hint-extent.ts';

test('a long lead-in that says when, or asks politely, is dropped; a short one stays with its fix', () => {
  assert.equal(tightenHint('For future ones please use tabs'), 'use tabs');
  assert.equal(tightenHint('for later snippets can you add docstrings?'), 'for later snippets can you add docstrings?');
  assert.equal(tightenHint('for future snippets can you add docstrings?'), 'add docstrings');
  assert.equal(
    tightenHint('From now on, always include the unit in the column header.'),
    'From now on, always include the unit in the column header.',
  );
  assert.equal(
    tightenHint('Could you rewrite the intro as three short bullet points instead of a wall of text?'),
    'rewrite the intro as three short bullet points instead of a wall of text',
  );
  assert.equal(tightenHint('Can you make it warmer?'), 'Can you make it warmer?');
});

test('praise before "but", and a reason or aside after the fix, are not part of it', () => {
  // Praise and "bitte" together outweigh the two words of the fix: both go.
  assert.equal(tightenHint('Sieht gut aus, aber bitte ohne Emojis'), 'ohne Emojis');
  assert.equal(tightenHint('nice list but please drop the last item, Tom already booked that one'), 'drop the last item');
  assert.equal(tightenHint('show only the diff though, I had to scroll through everything to find it.'), 'show only the diff');
  assert.equal(tightenHint('a version in Go would be nice too, but this was clear'), 'a version in Go');
  assert.equal(tightenHint('use metric units, but this one is fine as is.'), 'use metric units');
  assert.equal(tightenHint('the total comes from the API as cents, so please divide by 100'), 'divide by 100');
});

test('a short contrast stays whole; a cut never leaves fewer than two words', () => {
  assert.equal(tightenHint('use async/await, not callbacks'), 'use async/await, not callbacks');
  assert.equal(tightenHint('the port is 5433 not 5432, I told you we run two instances'), 'the port is 5433 not 5432');
  assert.equal(tightenHint('bitte duzen'), 'bitte duzen');
  assert.equal(tightenHint('Keep the headings short, I scrolled through all of them twice'), 'Keep the headings short');
});

test('Japanese praise before けど and a description before "I need" are not part of the fix', () => {
  assert.equal(tightenHint('構成はいいけど、もっと短くしてほしい'), 'もっと短くしてほしい');
  assert.equal(tightenHint("it's listing the oldest first, I need the newest first"), 'I need the newest first');
});

test('a lone "please" or question mark stays; the lead-in that says when is cut from wishes only', () => {
  assert.equal(tightenHint('Please write everything in lowercase.'), 'Please write everything in lowercase.');
  assert.equal(tightenHint('Only small letters, please.'), 'Only small letters, please.');
  assert.equal(tightenHint('For future ones please use tabs', false), 'For future ones please use tabs');
  assert.equal(tightenHint('以后回答简短一点，一两句话就行。', false), '以后回答简短一点，一两句话就行。');
});

test('cuts too small to make alone are made together when they leave a fix shorter than what they drop', () => {
  assert.equal(tightenHint('for future ones pls keep it under 200 words, I read these on my phone'), 'keep it under 200 words');
  assert.equal(tightenHint('Next time use pnpm instead of npm.'), 'Next time use pnpm instead of npm.', 'the rejected alternative stays');
  assert.equal(tightenHint('Only small letters, please.', false), 'Only small letters, please.', 'a lone please is never cut');
});
