// The README's own curl example, sent as written (its headers and body, read from README.md), gets
// an answer and leaves /healthz without warnings: the example shows what a client should send.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness } from '../support/harness.ts';

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** The first `curl … /v1/chat/completions` command in the README, with its headers and body. */
function readmeCurl(): { headers: Record<string, string>; body: string } {
  const start = README.indexOf('curl -s http://127.0.0.1:30000/v1/chat/completions');
  assert.ok(start !== -1, 'the README has the curl example');
  const command = README.slice(start, README.indexOf('```', start)).replace(/\\\n/g, ' ');
  const headers: Record<string, string> = {};
  for (const m of command.matchAll(/-H '([^:']+):\s*([^']*)'/g)) headers[m[1].toLowerCase()] = m[2];
  const body = /-d '([^']*)'/.exec(command)?.[1];
  assert.ok(body !== undefined, 'the curl example has a body');
  return { headers, body };
}

test('the README curl example gets an answer and no /healthz warning (session id and turn type given)', async () => {
  const { headers, body } = readmeCurl();
  assert.equal(headers['x-turn-type'], 'main');
  const h = await startHarness();
  try {
    const res = await fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers, body });
    assert.equal(res.status, 200);
    const answer = await res.json();
    assert.equal(typeof answer.choices[0].message.content, 'string');
    const health = await (await fetch(`${h.url}/healthz`)).json();
    assert.deepEqual(health.warnings, []);
  } finally {
    await h.close();
  }
});
