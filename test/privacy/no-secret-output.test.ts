// Secrets in conversations never show in what the server prints or serves (issue 38): its log at
// debug level, /healthz, /metrics, GET /sessions/:id, the dashboard's API and error answers. A
// session carries keys in the user's messages, a tool's output and the policy's answer, with a
// judge that fails on some calls, so error paths log too. (The journal and the store keep the
// conversation as recorded: they are the data, and `forget` removes it.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../src/app/index.ts';
import { runSession, startScoring } from '../pipeline/helpers.ts';

// Built at run time, so no key-shaped literal sits in the source.
const AWS = `AKIA${'QZ7XK2M4'.repeat(2)}`;
const GH = `ghp_${'Tr8Wq3Zx5Lm1'.repeat(3)}`;
const STRIPE = `sk_live_${'9fKq2LmZ8xRt'.repeat(2)}`;
const API_KEY = 'dashboard-key';

test('no detected secret shows in the log, /healthz, /metrics, session views, the dashboard API or errors', async () => {
  const lines: string[] = [];
  const log = createLogger('debug', { write: (l: string) => void lines.push(l) });
  const h = await startScoring({
    mode: 'openclaw-combine',
    apiKey: API_KEY,
    log,
    script: (v) =>
      v.seen === 0 ? { kind: 'status', status: 500, body: { error: { message: `upstream blew up on ${v.nextState}` } } } : undefined,
  });
  try {
    await runSession(
      h,
      'leaky',
      [`Deploy with AWS key ${AWS} please`, `The CI printed GITHUB_TOKEN=${GH}. Thanks, works now`, 'bye'],
      [`Deploying with ${STRIPE} as the payment key.`, 'Great.', 'Bye!'],
    );
    // A log line that quotes a secret (as an upstream's error message might).
    log.warn({ err: new Error(`upstream said: bad token ${GH}`) }, `could not call the judge with ${AWS}`);
    // A bad request that quotes a secret back.
    const bad = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...h.headers },
      body: JSON.stringify({ messages: [{ role: `user ${GH}`, content: 'x' }], session_id: 'leaky-2' }),
    });
    const badBody = await bad.text();
    await h.server.pipeline.whenIdle();
    const get = async (path: string) => (await fetch(`${h.url}${path}`, { headers: h.headers })).text();
    const served = {
      log: lines.join(''),
      healthz: await get('/healthz'),
      metrics: await get('/metrics'),
      session: await get('/sessions/leaky'),
      dashboard: (await get('/dashboard/api/sessions')) + (await get('/dashboard/api/sessions/leaky/turns')),
      error: badBody,
    };
    const shown = Object.entries(served).flatMap(([where, text]) =>
      [AWS, GH, STRIPE].filter((secret) => text.includes(secret)).map((secret) => `${where} shows ${secret.slice(0, 6)}…`),
    );
    assert.deepEqual(shown, []);
    assert.match(served.session, /Deploying with \[SECRET:stripe_key\] as the payment key/, 'the session view shows placeholders');
    assert.ok(lines.length >= 3, `the log was written: ${lines.length} lines`);
  } finally {
    await h.close();
  }
});
