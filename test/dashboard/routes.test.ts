// The dashboard's JSON API and static files driven in-process with `app.inject`: pagination
// bounds, step increments, the OpenAI error shape for bad parameters and unknown sessions, and
// the page shell that ships without any external URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { StepBuffer, createDashboardSource, isDashboardShellPath, registerDashboard } from '../../src/dashboard/index.ts';
import { MemoryDashboardSource } from '../support/memory-dashboard-source.ts';
import { evaluate } from '../../src/evaluation/index.ts';
import { assertOpenAIError } from '../gateway/expect.ts';
import { gatewayAuth, step, turn } from './fixtures.ts';

function build(source: MemoryDashboardSource, apiKey?: string): FastifyInstance {
  const app = Fastify({ logger: false });
  if (apiKey !== undefined) gatewayAuth(app, apiKey);
  registerDashboard(app, source);
  return app;
}

async function get(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, json: () => res.json(), text: res.body, headers: res.headers };
}

test("status answers the source's header numbers", async () => {
  const source = new MemoryDashboardSource({
    mode: 'openclaw-opd',
    policy_version: 7,
    samples_ready: 3,
    samples_pending: 2,
    live_sessions: 4,
  });
  source.addStep(step(1));
  const res = await get(build(source), '/dashboard/api/status');
  assert.equal(res.status, 200);
  assert.deepEqual(res.json(), {
    policy_version: 7,
    mode: 'openclaw-opd',
    step: 1,
    samples_ready: 3,
    samples_pending: 2,
    live_sessions: 4,
  });
  assert.equal(res.headers['cache-control'], 'no-store');
});

test('steps: everything after `since`, newest `limit` when bounded', async () => {
  const source = new MemoryDashboardSource();
  for (let n = 1; n <= 5; n++) source.addStep(step(n));
  const app = build(source);
  const stepsOf = async (url: string) => ((await get(app, url)).json() as { steps: Array<{ step: number }> }).steps.map((s) => s.step);
  assert.deepEqual(await stepsOf('/dashboard/api/steps'), [1, 2, 3, 4, 5]);
  assert.deepEqual(await stepsOf('/dashboard/api/steps?since=3'), [4, 5]);
  assert.deepEqual(await stepsOf('/dashboard/api/steps?since=5'), []);
  assert.deepEqual(await stepsOf('/dashboard/api/steps?since=0&limit=2'), [4, 5]);
  const full = (await get(app, '/dashboard/api/steps?since=4')).json() as { steps: Array<Record<string, number>> };
  assert.equal(full.steps[0].reward_mean, -0.5 + 0.1 * 5);
  assert.equal(full.steps[0].hint_accept_rate, 0.5);
});

test('steps: bad since/limit are 400s that name the parameter', async () => {
  const app = build(new MemoryDashboardSource());
  for (const [url, param] of [
    ['/dashboard/api/steps?since=abc', 'since'],
    ['/dashboard/api/steps?since=-1', 'since'],
    ['/dashboard/api/steps?since=1.5', 'since'],
    ['/dashboard/api/steps?since=1&since=2', 'since'],
    ['/dashboard/api/steps?limit=0', 'limit'],
    ['/dashboard/api/steps?limit=2001', 'limit'],
  ] as const) {
    const res = await get(app, url);
    assert.equal(res.status, 400, url);
    assertOpenAIError(res.json(), {
      type: 'invalid_request_error',
      param,
      code: 'invalid_parameter',
      mentions: [new RegExp(`'${param}'`)],
    });
  }
});

test('sessions: newest first, 20 by default, offset past the end is an empty page', async () => {
  const source = new MemoryDashboardSource();
  for (let s = 0; s < 45; s++) source.putTurn(`s-${s}`, turn(0, { judged: false }));
  for (let t = 0; t < 3; t++) source.putTurn('s-44', turn(t, { judged: t < 2, version: t + 1, minute: 30 + t }));
  const app = build(source);
  const first = (await get(app, '/dashboard/api/sessions')).json();
  assert.equal(first.total, 45);
  assert.equal(first.offset, 0);
  assert.equal(first.limit, 20);
  assert.equal(first.items.length, 20);
  assert.deepEqual(first.items[0], {
    session_id: 's-44',
    turns: 3,
    judged: 2,
    last_turn_at: '2025-01-01T12:32:00.000Z',
    policy_version: 3,
  });
  assert.equal(first.items[1].session_id, 's-43');
  const last = (await get(app, '/dashboard/api/sessions?offset=40&limit=10')).json();
  assert.deepEqual(
    last.items.map((s: { session_id: string }) => s.session_id),
    ['s-4', 's-3', 's-2', 's-1', 's-0'],
  );
  const past = (await get(app, '/dashboard/api/sessions?offset=100')).json();
  assert.deepEqual([past.total, past.items.length], [45, 0]);
  assert.equal((await get(app, '/dashboard/api/sessions?limit=100')).json().items.length, 45);
  assert.equal((await get(app, '/dashboard/api/sessions?limit=0')).json().items.length, 0);
});

test('sessions and turns: limit above 100 or a malformed offset is a 400 naming it', async () => {
  const source = new MemoryDashboardSource();
  source.putTurn('a', turn(0));
  const app = build(source);
  for (const [url, param] of [
    ['/dashboard/api/sessions?limit=101', 'limit'],
    ['/dashboard/api/sessions?offset=-1', 'offset'],
    ['/dashboard/api/sessions?offset=x', 'offset'],
    ['/dashboard/api/sessions/a/turns?limit=1000', 'limit'],
    ['/dashboard/api/sessions/a/turns?offset=2e3', 'offset'],
  ] as const) {
    const res = await get(app, url);
    assert.equal(res.status, 400, url);
    assertOpenAIError(res.json(), { type: 'invalid_request_error', param, mentions: [param === 'limit' ? /from 0 to 100/ : /integer/] });
  }
});

test('turns: one page of a long session in turn order; ids with slashes and spaces work', async () => {
  const source = new MemoryDashboardSource();
  const id = 'team/alice chat';
  for (let t = 249; t >= 0; t--) source.putTurn(id, turn(t));
  const app = build(source);
  const res = await get(app, `/dashboard/api/sessions/${encodeURIComponent(id)}/turns?offset=240&limit=20`);
  assert.equal(res.status, 200);
  const body = res.json();
  assert.equal(body.session_id, id);
  assert.equal(body.total, 250);
  assert.deepEqual(
    body.items.map((t: { turn_id: number }) => t.turn_id),
    [240, 241, 242, 243, 244, 245, 246, 247, 248, 249],
  );
  assert.deepEqual(body.items[0].judgement, {
    score: 1,
    votes: [1, 1, -1],
    loss_mask: 1,
    hint_accepted: true,
    hint: 'keep answers shorter than 250 words',
    sample_type: 'combined',
  });
  assert.deepEqual(body.items[0].next_state, { role: 'user', content: 'reply to answer 240' });
  assert.equal((await get(app, `/dashboard/api/sessions/${encodeURIComponent(id)}/turns`)).json().items.length, 20);
});

test('turns of an unknown session: 404 in OpenAI shape naming the id', async () => {
  const res = await get(build(new MemoryDashboardSource()), '/dashboard/api/sessions/nobody/turns');
  assert.equal(res.status, 404);
  assertOpenAIError(res.json(), { type: 'not_found_error', code: 'session_not_found', param: 'id', mentions: [/'nobody'/] });
});

test('the page and every file it loads are served from the package, with no external URL', async () => {
  const app = build(new MemoryDashboardSource());
  const page = await get(app, '/dashboard');
  assert.equal(page.status, 200);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  assert.match(String(page.headers['content-security-policy']), /default-src 'none'; script-src 'self'/);
  const files = ['style.css', 'app.js', 'api.js', 'chart.js', 'render.js', 'favicon.svg'];
  const bodies = [page.text];
  for (const name of files) {
    const res = await get(app, `/dashboard/assets/${name}`);
    assert.equal(res.status, 200, name);
    assert.match(
      String(res.headers['content-type']),
      name.endsWith('.css') ? /^text\/css/ : name.endsWith('.svg') ? /^image\/svg\+xml/ : /^text\/javascript/,
    );
    bodies.push(res.text);
  }
  assert.match(page.text, /src="dashboard\/assets\/app\.js"/);
  // The SVG namespace is an identifier, not a download.
  const external = bodies
    .join('\n')
    .replaceAll('http://www.w3.org/2000/svg', '')
    .match(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/gi);
  assert.equal(external, null, `external references: ${external?.join(', ')}`);
  const redirect = await get(app, '/dashboard/');
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.location, '../dashboard');
});

test('unknown or escaping asset paths are 404s', async () => {
  const app = build(new MemoryDashboardSource());
  for (const url of ['/dashboard/assets/missing.js', '/dashboard/assets/..%2F..%2Fpackage.json', '/dashboard/assets/index.ts']) {
    const res = await get(app, url);
    assert.equal(res.status, 404, url);
    assertOpenAIError(res.json(), { type: 'not_found_error', code: 'asset_not_found' });
  }
});

test('behind an API key: the shell loads without it, the data needs it', async () => {
  const source = new MemoryDashboardSource({ policy_version: 2 });
  const app = build(source, 'sk-dash');
  assert.equal((await get(app, '/dashboard?key=sk-dash')).status, 200);
  assert.equal((await get(app, '/dashboard/assets/app.js')).status, 200);
  assert.equal((await get(app, '/dashboard/api/status')).status, 401);
  assert.equal((await get(app, '/dashboard/api/status', { authorization: 'Bearer sk-wrong' })).status, 401);
  const ok = await get(app, '/dashboard/api/status', { authorization: 'Bearer sk-dash' });
  assert.equal(ok.status, 200);
  assert.equal(ok.json().policy_version, 2);
});

test('only the page shell counts as public', () => {
  for (const p of ['/dashboard', '/dashboard/', '/dashboard/assets/app.js', '/dashboard/assets/style.css'])
    assert.equal(isDashboardShellPath(p), true, p);
  for (const p of [
    '/dashboard/api/status',
    '/dashboard/api/sessions',
    '/dashboard/assets/../api/status',
    '/dashboard/assets/%2e%2e/api/status',
    '/dashboard/assets/a/b.js',
    '/dashboardx',
    '/v1/models',
    '/dashboard/assets/',
  ]) {
    assert.equal(isDashboardShellPath(p), false, p);
  }
});

test('evaluation: the source’s per-version evaluation; a source without a store answers 404', async () => {
  const source = new MemoryDashboardSource();
  const empty = await get(build(source), '/dashboard/api/evaluation');
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.json().versions, []);
  const evaluation = evaluate({
    samples: [
      {
        policyVersion: 4,
        type: 'rl',
        state: 'trained',
        dropReason: null,
        reward: 1,
        hasHint: false,
        hasVote: true,
        n: 3,
        firstAt: 0,
        lastAt: 9,
      },
    ],
    turnDrops: [],
  });
  source.setEvaluation(evaluation);
  const res = await get(build(source), '/dashboard/api/evaluation');
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.deepEqual(res.json(), evaluation);
  assert.deepEqual(res.json().versions[0].reward, { n: 3, mean: 1, std: 0, ci95: { low: 1, high: 1 } });

  const bare = createDashboardSource({
    status: () => source.status(),
    steps: new StepBuffer(),
    views: { sessionIds: () => [], turns: () => undefined },
  });
  const app = Fastify({ logger: false });
  registerDashboard(app, bare);
  const missing = await get(app, '/dashboard/api/evaluation');
  assert.equal(missing.status, 404);
  assertOpenAIError(missing.json(), { type: 'not_found_error', code: 'evaluation_unavailable' });
});
