// tempDir's folders are gone once the process that made them exits, also after a failed assertion;
// OPENCLAW_RL_KEEP_TEST_DIRS=1 keeps them and says where.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TEMP = join(import.meta.dirname, 'temp.ts');

/** Runs a script that makes two folders with tempDir (and then fails if asked) in a private TMPDIR. */
function run(opts: { fail: boolean; keep?: boolean }) {
  const sandbox = mkdtempSync(join(tmpdir(), 'ocrl-temp-test-'));
  try {
    const script = `
      import { writeFileSync } from 'node:fs';
      import { join } from 'node:path';
      const { tempDir } = await import(${JSON.stringify(TEMP)});
      const a = tempDir('ocrl-a-');
      writeFileSync(join(a, 'file'), 'x');
      tempDir('ocrl-b-');
      console.log(a);
      if (${opts.fail}) throw new Error('a failing test');
    `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, TMPDIR: sandbox, OPENCLAW_RL_KEEP_TEST_DIRS: opts.keep ? '1' : '' },
      encoding: 'utf8',
    });
    return { status: r.status, made: r.stdout.trim(), stderr: r.stderr, left: readdirSync(sandbox).filter((n) => n.startsWith('ocrl-')) }; // tsx keeps its compile cache there too
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
}

test('tempDir: the folders are removed when the process exits', () => {
  const r = run({ fail: false });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.made, /ocrl-a-/);
  assert.equal(existsSync(r.made), false);
  assert.deepEqual(r.left, []);
});

test('tempDir: also when the process ends with an error', () => {
  const r = run({ fail: true });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /a failing test/);
  assert.deepEqual(r.left, []);
});

test('tempDir: OPENCLAW_RL_KEEP_TEST_DIRS=1 keeps them and names them', () => {
  const r = run({ fail: false, keep: true });
  assert.equal(r.left.length, 2);
  assert.match(r.stderr, /kept test folders \(OPENCLAW_RL_KEEP_TEST_DIRS=1\):\n {2}.*ocrl-a-/);
});
