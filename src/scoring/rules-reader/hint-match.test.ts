import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyNextState } from '../judge/rules.ts';
import { hintMatches, hintWords } from './hint-match.ts';
import { readFeedback } from './index.ts';

test('hint match: covers ≥ 75% of the expected words with ≥ 50% of its own; CJK by character', () => {
  assert.deepEqual(hintWords("Use 'pathlib' instead"), ['use', 'pathlib', 'instead']);
  assert.deepEqual(hintWords('改成7日'), ['改', '成', '7', '日']);
  assert.equal(hintMatches('use pathlib instead of os.path', 'please use pathlib instead of os.path'), true);
  assert.equal(hintMatches('use pathlib', 'the whole reply, which mentions pathlib among many other words'), false);
  assert.equal(hintMatches('改成小写', '请改成小写'), true);
  assert.equal(hintMatches('', 'anything'), false);
});

test("the rules' hints: on failures and wishes, in several languages; none on neutral replies", () => {
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
