import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJudgeSet } from '../../../bench/judge-metrics.ts';
import { classifyNextState } from '../judge/rules.ts';
import { RULE_EXAMPLES } from './examples.ts';
import { readFeedback } from './index.ts';

const user = (text: string) => classifyNextState({ role: 'user', content: text });
const verdict = (text: string) => {
  const v = user(text);
  return [v.score, v.hint];
};

// Each rule's own examples (examples.ts): the edge cases docs/judge.md names and a few more.
for (const [rule, examples] of Object.entries(RULE_EXAMPLES)) {
  test(`edge cases: ${rule}`, () => {
    for (const e of examples) assert.deepEqual(verdict(e.text), [e.score, e.hint], e.text);
  });
}

test('edge cases: tool results, errors against output, as before', () => {
  const tool = (content: string) => classifyNextState({ role: 'tool', content }).score;
  assert.equal(tool('Traceback (most recent call last):\n  ValueError: bad'), -1);
  assert.equal(tool('npm ERR! code ERESOLVE'), -1);
  assert.equal(tool('FAIL src/app.test.ts'), -1);
  assert.equal(tool('{"ok": false, "error": "rate limit"}'), -1);
  assert.equal(tool('Tests: 42 passed, 42 total'), 1);
  assert.equal(tool('Build finished with 0 errors'), 1);
  assert.equal(classifyNextState({ role: 'tool', content: 'error' }).hint, null);
});

// A fixed subset of bench/judge-set/dev.tsv: line number → the exact verdict (score and hint).
const SUBSET: Array<[number, 1 | 0 | -1, string | null]> = [
  [3, 1, null],
  [4, 1, null],
  [10, 1, null],
  [30, -1, null],
  [31, -1, null],
  [38, -1, null],
  [41, -1, null],
  [47, -1, 'I asked for a summary, not an essay.'],
  [66, -1, 'Make it shorter.'],
  [67, -1, 'No bullet points please.'],
  [68, -1, 'Only use lowercase.'],
  [69, -1, 'Keep it under 50 words.'],
  [70, -1, 'tabs, not spaces'],
  [75, -1, 'stop apologising and just give me the code'],
  [77, -1, 'use async/await, not callbacks'],
  [79, -1, 'Write it as a paragraph, no lists.'],
  [90, -1, 'use British spelling'],
  [98, -1, 'It should be async.'],
  [102, 1, 'Next time use pnpm instead of npm.'],
  [103, 1, 'please drop the emojis next time.'],
  [106, -1, 'You should probably add a test for it'],
  [107, 0, null],
  [111, 0, null],
  [112, 0, null],
  [140, -1, null],
  [147, -1, '不要用列表，写成一段话'],
  [150, -1, '请控制在100字以内'],
  [152, -1, '别加那么多表情'],
  [158, -1, null],
  [163, -1, null],
  [171, 1, null],
];

test('a fixed subset of the evaluation set: exact scores and hints', () => {
  const items = parseJudgeSet(readFileSync(join(import.meta.dirname, '../../../bench/judge-set/dev.tsv'), 'utf8'), 'dev');
  for (const [line, score, hint] of SUBSET) {
    const item = items.find((i) => i.line === line);
    assert.ok(item !== undefined, `dev.tsv line ${line} exists`);
    assert.equal(item.score, score, `the set's own label of line ${line}`);
    const v = classifyNextState({ role: item.role, content: item.text });
    assert.deepEqual([v.score, v.hint], [score, hint], `dev.tsv line ${line}: ${item.text}`);
  }
});

test('the reader is deterministic and records what decided', () => {
  const a = readFeedback('Too long. Give me two sentences max.');
  assert.deepEqual(a, readFeedback('Too long. Give me two sentences max.'));
  assert.ok(
    a.cues.some((c) => c.startsWith('complaint:')),
    a.cues.join(', '),
  );
  assert.ok(
    a.cues.some((c) => c.startsWith('instruction:')),
    a.cues.join(', '),
  );
});
