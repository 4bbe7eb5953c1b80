#!/usr/bin/env node
// `npm test`: finds every *.test.ts under src/ and test/ and runs them with node's own test
// runner through tsx. Node 20's --test does not expand globs, hence this small finder.
// Extra arguments filter test files by substring: `npm test -- gateway`.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function findTests(dir) {
  let out = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(findTests(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = ['src', 'test']
  .flatMap((d) => {
    try {
      return findTests(d);
    } catch {
      return [];
    }
  })
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, OPENCLAW_RL_TEST: '1' },
});
process.exit(res.status ?? 1);
