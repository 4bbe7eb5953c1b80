import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLines } from './lines.ts';
import { tempDir } from '../../test/support/temp.ts';

test('lines with their byte offsets, across chunk borders, from an offset, torn last line included', () => {
  const path = join(tempDir('ocrl-lines-'), 'f.jsonl');
  const long = 'x'.repeat(3 * (1 << 20) + 17); // spans several 1 MiB chunks
  writeFileSync(path, `a\n${long}\nüb\n\ntorn`);
  const all = [...readLines(path)];
  assert.deepEqual(
    all.map((l) => [l.text.length, l.offset]),
    [
      [1, 0],
      [long.length, 2],
      [2, long.length + 3],
      [0, long.length + 7],
      [4, long.length + 8],
    ],
  );
  assert.equal(all[2].text, 'üb');
  assert.deepEqual(
    [...readLines(path, long.length + 3)].map((l) => l.text),
    ['üb', '', 'torn'],
  );
});
