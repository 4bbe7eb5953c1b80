// The dashboard in a real browser (a Chromium found on the machine, see test/support/chromium.ts;
// headless, driven by playwright-core; skipped with the install command when there is none): a real
// Fastify server behind an API key serves the page over an in-memory source; steps arrive before
// and while the page is open. Checks that the charts drew the points and grew, that the header
// follows the status, that a session's turns render and paginate, that the page loads nothing
// from elsewhere, that a page opened without the key asks for it; saves a screenshot (also to
// docs/dashboard.png for the README when OPENCLAW_RL_UPDATE_SCREENSHOT=1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { chromium } from 'playwright-core';
import type { TurnSummary } from '../../src/gateway/views.ts';
import { registerDashboard } from '../../src/dashboard/index.ts';
import { MemoryDashboardSource } from '../support/memory-dashboard-source.ts';
import { evaluate, type Evaluation } from '../../src/evaluation/index.ts';
import type { SampleTallyRow } from '../../src/samples/index.ts';
import { gatewayAuth, step } from './fixtures.ts';
import { tempDir } from '../support/temp.ts';
import { chooseBrowser, playwrightChromium } from '../support/chromium.ts';

const BROWSER = chooseBrowser(process.env, existsSync, playwrightChromium());
const KEY = 'sk-dashboard-test';
const REPO = fileURLToPath(new URL('../../', import.meta.url));

const ANSWERS = [
  'Sure! Here is an outline of your essay on the French Revolution:\n\n1. **Causes** – fiscal crisis, Enlightenment ideas\n2. **Events** – 1789 to 1799\n3. **Legacy**',
  'the revolution started in 1789 mostly because the state was broke and people were fed up with the old order.',
  'Certainly! As an AI language model, I would suggest the following structure for your conclusion.',
  'ok, shorter version: money trouble, new ideas, a lot of anger. that is the core of it.',
];
const REPLIES: Array<{ role: string; content: string } | null | 'pending'> = [
  { role: 'user', content: 'too formal and it looks AI-written. no bullet points please, just talk normally.' },
  { role: 'user', content: 'perfect, thanks!' },
  { role: 'tool', content: '{"word_count": 312, "reading_level": "grade 9"}' },
  { role: 'user', content: 'hmm, can you redo that? drop the "as an AI" part.' },
];

/** Turn t of the long session: a cycle of judged outcomes, the newest still waiting for its next state. */
function richTurn(t: number, last: number): TurnSummary {
  const at = new Date(Date.now() - (last - t) * 60_000).toISOString();
  const base: TurnSummary = {
    turn_id: t,
    started_at: at,
    completed_at: at,
    policy_version: Math.floor(t / 6),
    finish_reason: 'stop',
    response: ANSWERS[t % 4],
    tool_calls: 0,
    next_state: t === last ? 'pending' : REPLIES[t % 4],
  };
  if (t === last) return base;
  const kind = t % 4;
  if (kind === 0)
    base.judgement = {
      score: -1,
      votes: [-1, -1, 1],
      loss_mask: 1,
      hint_accepted: true,
      hint: 'Write one casual paragraph without bullet points or bold text.',
      sample_type: 'combined',
    };
  if (kind === 1) base.judgement = { score: 1, votes: [1, 1, 1], loss_mask: 1, hint_accepted: false, hint: null, sample_type: 'rl' };
  if (kind === 2)
    base.judgement = {
      score: 0,
      votes: [0, 1, -1],
      loss_mask: 0,
      hint_accepted: false,
      hint: null,
      sample_type: null,
      dropped_reason: 'no_signal',
    };
  if (kind === 3)
    base.judgement = {
      score: -1,
      votes: [-1, 'fail', -1],
      loss_mask: 1,
      hint_accepted: true,
      hint: 'Never mention being an AI; answer directly.',
      sample_type: 'combined',
    };
  return base;
}

function seed(source: MemoryDashboardSource): void {
  for (let s = 0; s < 29; s++) {
    const turns = 1 + (s % 3);
    for (let t = 0; t < turns; t++) source.putTurn(`persona-${String(s).padStart(2, '0')}`, richTurn(t, turns));
  }
  for (let t = 0; t <= 44; t++) source.putTurn('student-homework', richTurn(t, 44));
}

/** Versions 0…last, 20 judged turns each, the share of +1 rising with the version (the rest −1). */
function evaluationUpTo(last: number): Evaluation {
  const samples: SampleTallyRow[] = [];
  for (let v = 0; v <= last; v++) {
    const positive = Math.min(20, 4 + 2 * v);
    const row = { policyVersion: v, type: 'rl' as const, state: 'trained' as const, dropReason: null, hasHint: false, hasVote: true };
    samples.push({ ...row, reward: 1, n: positive, firstAt: v * 60_000, lastAt: v * 60_000 + 1 });
    if (positive < 20) samples.push({ ...row, reward: -1, n: 20 - positive, firstAt: v * 60_000, lastAt: v * 60_000 + 1 });
  }
  // The replay evaluation of every trained version (docs/evaluation.md): a rising OPD advantage.
  const evaluations = Array.from({ length: last }, (_, i) => ({
    policyVersion: i + 1,
    metric: 'replay_opd_advantage',
    value: -0.5 + 0.05 * (i + 1),
    samples: 16,
    at: (i + 1) * 60_000,
  }));
  return evaluate({ samples, turnDrops: [], evaluations }, { servingVersion: last });
}

/** Rating rises the way the demo's does: the chart should show a clear trend. */
function metrics(n: number) {
  return step(n, { rating: Math.min(0.95, 0.15 + 0.1 * n) });
}

test('the dashboard page shows live charts and session turns in headless chromium', {
  timeout: 90_000,
  skip: 'skip' in BROWSER ? BROWSER.skip : false,
}, async (t) => {
  if ('fail' in BROWSER) assert.fail(BROWSER.fail);
  if (!('path' in BROWSER)) return;
  const source = new MemoryDashboardSource({
    mode: 'openclaw-combine',
    policy_version: 5,
    samples_ready: 3,
    samples_pending: 2,
    samples_trained: 40,
    samples_dropped: 7,
    drops_by_reason: { no_signal: 5, no_next_state: 2 },
    live_sessions: 30,
  });
  for (let n = 1; n <= 5; n++) source.addStep(metrics(n));
  source.setEvaluation(evaluationUpTo(5));
  seed(source);

  const app = Fastify({ logger: false });
  gatewayAuth(app, KEY);
  registerDashboard(app, source);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  const origin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  t.after(() => app.close());

  const dir = tempDir('ocrl-dashboard-');
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: BROWSER.path,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1440, height: 900 },
  });
  t.after(() => context.close());
  const requested: string[] = [];
  const problems: string[] = [];
  context.on('request', (r) => requested.push(r.url()));
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url()}`);
  });

  await page.goto(`${origin}/dashboard#key=${KEY}`);
  const points = (id: string) => page.getAttribute(`figure.chart[data-chart="${id}"]`, 'data-points');
  await page.waitForSelector('figure.chart[data-chart="reward"][data-points="5"]');
  for (const id of ['reward', 'advantage', 'effective', 'hint', 'clipfrac', 'kl', 'staleness', 'step-time'])
    assert.equal(await points(id), '5', id);
  assert.equal(new URL(page.url()).hash, '', 'the key is taken out of the address bar');
  assert.equal(await page.textContent('#status [data-field="policy_version"]'), '5');
  assert.equal(await page.textContent('#status [data-field="samples_ready"]'), '3');
  assert.match((await page.textContent('figure[data-chart="reward"] .legend')) ?? '', /rating/, 'a rating metric joins the reward chart');
  // Reward by policy version: v5 serves, 14 of 20 turns +1, 6 −1 → mean 0.4, s = 0.940,
  // ± t(0.975, 19)·s/√20 = ± 0.440.
  await page.waitForSelector('figure.chart[data-chart="by-version"][data-points="6"]');
  assert.match(
    (await page.textContent('figure[data-chart="by-version"] .legend')) ?? '',
    /^v5 \(serving\)mean 0\.4 \[-0\.04, 0\.84\]n 20−1 0\.3hint 0replay adv -0\.25$/,
  );
  assert.equal(await page.getAttribute('figure[data-chart="by-version"]', 'data-replay-points'), '5', 'the replay line: versions 1–5');
  assert.equal(await page.locator('figure[data-chart="by-version"] line.whisker').count(), 6 * 3, 'a whisker and two caps per version');

  // Training goes on while the page is open: the charts grow by the new steps only.
  for (let n = 6; n <= 8; n++) source.addStep(metrics(n));
  source.setEvaluation(evaluationUpTo(8));
  source.setStatus({ policy_version: 8, samples_ready: 0 });
  // A new serving version makes the page fetch the evaluation again at once.
  await page.waitForSelector('figure.chart[data-chart="by-version"][data-points="9"]');
  await page.waitForSelector('figure.chart[data-chart="reward"][data-points="8"]');
  for (const id of ['advantage', 'kl', 'step-time']) assert.equal(await points(id), '8', id);
  await page.waitForFunction(() => document.querySelector('#status [data-field="policy_version"]')?.textContent === '8');
  // Step 8: reward_mean = -0.5 + 0.8 = 0.3, rating = 0.95 (capped).
  assert.match((await page.textContent('figure[data-chart="reward"] .legend')) ?? '', /reward 0\.3.*rating 0\.95/);
  assert.ok(
    requested.some((u) => u.includes('/dashboard/api/steps?since=5')),
    'the page asked only for steps after the last one it had',
  );

  // Sessions: newest first, one page of 20 of 30.
  assert.equal(await page.locator('#sessions tbody tr[data-session-id]').count(), 20);
  assert.match((await page.textContent('#sessions-pager .range')) ?? '', /1–20 of 30/);
  await page.click('#sessions tbody tr[data-session-id="student-homework"]');
  await page.waitForSelector('#turns tbody tr[data-turn-id="0"]');
  assert.equal(await page.locator('#turns tbody tr[data-turn-id]').count(), 20);
  const first = (await page.textContent('#turns tbody tr[data-turn-id="0"]')) ?? '';
  for (const part of ['Causes', 'too formal', '−1', 'accepted', 'Write one casual paragraph', 'combined'])
    assert.ok(first.includes(part), `turn 0 shows ${part}: ${first}`);
  assert.match((await page.textContent('#turns tbody tr[data-turn-id="2"]')) ?? '', /tool.*word_count.*no_signal/s);
  assert.match((await page.textContent('#turns-pager .range')) ?? '', /1–20 of 45/);
  await page.click('#turns-pager button[data-page="last"]');
  await page.waitForSelector('#turns tbody tr[data-turn-id="44"]');
  assert.deepEqual(
    await page.locator('#turns tbody tr[data-turn-id]').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.turnId)),
    ['40', '41', '42', '43', '44'],
  );
  assert.match((await page.textContent('#turns tbody tr[data-turn-id="44"]')) ?? '', /waiting for the next request/);
  await page.click('#turns-pager button[data-page="first"]');
  await page.waitForSelector('#turns tbody tr[data-turn-id="0"]');

  assert.deepEqual(
    requested.filter((u) => !u.startsWith(`${origin}/`)),
    [],
    'the page loads nothing from elsewhere',
  );
  assert.deepEqual(problems, []);

  // Opened without a key (a new tab has none), the page asks for it and then shows the data.
  const bare = await context.newPage();
  await bare.goto(`${origin}/dashboard`);
  await bare.waitForSelector('#key-form:not([hidden])');
  assert.equal(await bare.getAttribute('figure.chart[data-chart="reward"]', 'data-points'), '0');
  await bare.fill('#key-input', KEY);
  await bare.click('#key-form button[type="submit"]');
  await bare.waitForSelector('figure.chart[data-chart="reward"][data-points="8"]');
  assert.equal(await bare.isHidden('#key-form'), true);
  await bare.close();

  await page.mouse.move(0, 0);
  const shot = join(dir, 'dashboard.png');
  await page.screenshot({ path: shot, fullPage: true });
  assert.ok(statSync(shot).size > 10_000, 'the screenshot has content');
  mkdirSync(join(REPO, 'docs'), { recursive: true });
  // The README's picture is refreshed on request only, so `npm test` leaves the tree clean.
  if (process.env.OPENCLAW_RL_UPDATE_SCREENSHOT === '1') copyFileSync(shot, join(REPO, 'docs', 'dashboard.png'));
  t.diagnostic(`screenshot: ${shot}`);
});
