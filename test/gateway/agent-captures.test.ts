// What the real agents sent, replayed: requests captured from Claude Code, Codex and OpenClaw as
// they ship (test/fixtures/agents/, recorded by someone who had not read this code, against a
// server of their own) go through the gateway as they came — headers and bodies — and each
// capture must give the sessions, main turns, side turns and next states the agent meant.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, postJson, type Harness } from '../support/harness.ts';
import { readRecords } from '../../src/sessions/index.ts';

const DIR = join(import.meta.dirname, '..', 'fixtures', 'agents');
/** Headers that belong to the capture's connection, not to the request's meaning. */
const TRANSPORT = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'transfer-encoding', 'x-api-key', 'authorization']);

interface Captured {
  seq: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
}

function captures(file: string): Captured[] {
  return readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Captured)
    .filter((c) => c.method === 'POST' && /^\/v1\/(messages|responses)/.test(c.path));
}

/**
 * Per capture: main turns (trained), side turns (the agent's helper calls: Claude Code's title
 * call without tools, Codex's `request_kind: "compaction"`), and what names the session.
 */
const EXPECTED: Array<{ file: string; main: number; side: number; namedBy: string | RegExp }> = [
  { file: 'claude-code-2.1.332.jsonl', main: 2, side: 0, namedBy: 'x-claude-code-session-id' },
  { file: 'claude-code-2.1.332-interactive.jsonl', main: 2, side: 1, namedBy: 'x-claude-code-session-id' },
  { file: 'claude-code-2.1.332-nonessential-disabled.jsonl', main: 2, side: 0, namedBy: 'x-claude-code-session-id' },
  // `claude --continue` after the first capture: the same session id, its turns go on from 3.
  { file: 'claude-code-2.1.332-continue.jsonl', main: 2, side: 0, namedBy: 'x-claude-code-session-id' },
  { file: 'codex-0.171.0.jsonl', main: 2, side: 0, namedBy: 'session-id' },
  { file: 'codex-0.171.0-compaction.jsonl', main: 2, side: 2, namedBy: 'session-id' },
  { file: 'codex-0.171.0-resume.jsonl', main: 2, side: 0, namedBy: 'session-id' },
  // Captured with compat.supportsPromptCacheKey only (no sendSessionIdHeader): "<sessionId>:0".
  { file: 'openclaw-2026.9.6-openai-responses.jsonl', main: 2, side: 0, namedBy: 'prompt_cache_key' },
  // The same OpenClaw session's second user turn.
  { file: 'openclaw-2026.9.6-openai-responses-turn2.jsonl', main: 2, side: 0, namedBy: 'prompt_cache_key' },
  { file: 'openclaw-2026.9.6-openai-responses-no-cache-key.jsonl', main: 2, side: 0, namedBy: /^(trace|prefix)$/ },
  // No session header at all: the tool follow-up shares the first request's trace id (traceparent).
  { file: 'openclaw-2026.9.6-anthropic-messages.jsonl', main: 2, side: 0, namedBy: /^(trace|prefix)$/ },
];

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

for (const expected of EXPECTED) {
  test(`${expected.file}: ${expected.main} main turn(s), ${expected.side} side turn(s), session named by ${expected.namedBy}`, async () => {
    const recordsPath = join(h.outDir, 'records', 'turns.jsonl');
    const turnsBefore = readRecords(recordsPath).turns.length;
    const sideBefore = h.server.tracker.counters.side_turns;
    for (const c of captures(expected.file)) {
      const headers = Object.fromEntries(Object.entries(c.headers).filter(([k]) => !TRANSPORT.has(k)));
      const stream = c.body?.stream === true;
      h.upstream.script({ kind: 'text', text: 'Done.' });
      const res = await postJson(`${h.url}${c.path}`, c.body, headers);
      assert.equal(res.status, 200, `request ${c.seq}: ${JSON.stringify(res.body).slice(0, 300)}`);
      if (stream) assert.match(String(res.body), /^event: /, `request ${c.seq} streams named events`);
    }
    const added = readRecords(recordsPath).turns.slice(turnsBefore);
    assert.equal(added.length, expected.main, 'main turns recorded');
    assert.equal(h.server.tracker.counters.side_turns - sideBefore, expected.side, 'side turns');
    const sessionId = added[0].session_id;
    assert.ok(
      added.every((t) => t.session_id === sessionId || expected.side > 0),
      'one session per run (a compaction may start a new window)',
    );
    const view = await (await fetch(`${h.url}/sessions/${encodeURIComponent(sessionId)}`)).json();
    if (typeof expected.namedBy === 'string') assert.equal(view.named_by, expected.namedBy);
    else assert.match(view.named_by, expected.namedBy);
    const first = view.turns.find((t: { turn_id: number }) => t.turn_id === added[0].turn_id);
    assert.equal(first.next_state?.role, 'tool', "the run's first turn has the tool's result as its next state");
    const before = view.turns.find((t: { turn_id: number }) => t.turn_id === added[0].turn_id - 1);
    if (before !== undefined)
      assert.equal(
        before.next_state?.role,
        'user',
        "a continued session: the earlier run's last turn has the user's new message as its next state",
      );
  });
}
