// Which browser the dashboard test uses, and what happens without one: a bare clone skips with the
// install command, CI (OPENCLAW_RL_REQUIRE_BROWSER=1) fails, a wrong OPENCLAW_RL_CHROMIUM fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { chooseBrowser, playwrightChromium, SYSTEM_CHROMIUMS } from '../support/chromium.ts';

const only =
  (...present: string[]) =>
  (p: string) =>
    present.includes(p);

test('a system Chromium is used first, then Playwright’s own', () => {
  assert.deepEqual(chooseBrowser({}, only('/usr/bin/chromium', '/pw/chrome'), '/pw/chrome'), { path: '/usr/bin/chromium' });
  assert.deepEqual(chooseBrowser({}, only('/usr/bin/google-chrome'), '/pw/chrome'), { path: '/usr/bin/google-chrome' });
  assert.deepEqual(chooseBrowser({}, only('/pw/chrome'), '/pw/chrome'), { path: '/pw/chrome' });
});

test('no browser: skipped, and the reason says how to install one', () => {
  const r = chooseBrowser({}, only(), '/pw/chrome');
  assert.ok('skip' in r);
  assert.match(r.skip, /apt-get install chromium/);
  for (const p of [...SYSTEM_CHROMIUMS, '/pw/chrome']) assert.ok(r.skip.includes(p), `names ${p}`);
});

test('no browser with OPENCLAW_RL_REQUIRE_BROWSER=1: a failure, with the install command', () => {
  const r = chooseBrowser({ OPENCLAW_RL_REQUIRE_BROWSER: '1' }, only());
  assert.ok('fail' in r);
  assert.match(r.fail, /apt-get install chromium.*OPENCLAW_RL_REQUIRE_BROWSER=1/s);
});

test('OPENCLAW_RL_CHROMIUM wins; a path that does not exist is a failure, never a skip', () => {
  assert.deepEqual(chooseBrowser({ OPENCLAW_RL_CHROMIUM: '/opt/c' }, only('/opt/c', '/usr/bin/chromium')), { path: '/opt/c' });
  const r = chooseBrowser({ OPENCLAW_RL_CHROMIUM: '/opt/none' }, only('/usr/bin/chromium'));
  assert.ok('fail' in r);
  assert.match(r.fail, /OPENCLAW_RL_CHROMIUM is \/opt\/none, which does not exist/);
});

/** Runs the dashboard test file in node's test runner with extra environment. */
function runDashboardTest(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const file = join(import.meta.dirname, 'dashboard.test.ts');
  // Without NODE_TEST_CONTEXT, which would make the child's runner think it is nested and run nothing.
  const { NODE_TEST_CONTEXT: _, ...parent } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', file], {
      env: { ...parent, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

test('the dashboard test fails, naming the variable, when OPENCLAW_RL_CHROMIUM points nowhere', async () => {
  const r = await runDashboardTest({ OPENCLAW_RL_CHROMIUM: '/nonexistent/chromium' });
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /OPENCLAW_RL_CHROMIUM is \/nonexistent\/chromium, which does not exist/);
});

const here = chooseBrowser({ ...process.env, OPENCLAW_RL_REQUIRE_BROWSER: '', OPENCLAW_RL_CHROMIUM: '' }, existsSync, playwrightChromium());
test('on this machine without a browser: the dashboard test is skipped, or fails under OPENCLAW_RL_REQUIRE_BROWSER=1', {
  skip: 'path' in here && `a browser is installed here (${here.path})`,
}, async () => {
  const skipped = await runDashboardTest({ OPENCLAW_RL_REQUIRE_BROWSER: '', OPENCLAW_RL_CHROMIUM: '' });
  assert.equal(skipped.code, 0, skipped.out);
  assert.match(skipped.out, /skipped 1/);
  assert.match(skipped.out, /apt-get install chromium/);
  const required = await runDashboardTest({ OPENCLAW_RL_REQUIRE_BROWSER: '1', OPENCLAW_RL_CHROMIUM: '' });
  assert.equal(required.code, 1, required.out);
  assert.match(required.out, /OPENCLAW_RL_REQUIRE_BROWSER=1 makes this a failure/);
});
