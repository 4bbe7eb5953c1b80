// What the demo prints around the run: the table's step labels, and nothing at all for a persona
// it does not know (the error comes before the banner).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { OpenClawError } from '../errors/index.ts';
import { formatDemoTable, runDemo, type LearnResult } from './index.ts';

const result = (ratings: Record<number, number>): LearnResult => ({
  mode: 'openclaw-combine',
  persona: 'terse',
  seed: 1,
  ratings,
  stepsTo07: null,
  episodes: 4,
  stepsDone: 2,
  failedEpisodes: 0,
  hintAcceptRate: 0,
  outputDir: 'x',
  url: 'http://127.0.0.1:1',
  wallSeconds: 1,
});

test('the table says "1 step", never "1 steps"', () => {
  assert.match(formatDemoTable(result({ 0: 0.2, 1: 0.5 }), 1), /^\| persona \| method \| Base \| Updated \(1 step\) \|$/m);
  assert.match(formatDemoTable(result({ 0: 0.2, 1: 0.4, 2: 0.5 }), 2), /\| Base \| 1 step \| Updated \(2 steps\) \|/);
});

test('an unknown persona is refused before the banner: nothing is printed', async () => {
  const out = new PassThrough();
  let printed = '';
  out.on('data', (d) => (printed += d));
  await assert.rejects(
    runDemo({ mode: 'openclaw-combine', persona: 'pirate', steps: 1, out }),
    (e) => e instanceof OpenClawError && e.kind === 'invalid_request' && /unknown persona 'pirate'/.test(e.message),
  );
  assert.equal(printed, '');
});
