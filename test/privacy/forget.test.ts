// Forgetting a session (issue 38): DELETE /sessions/:id on a running server, on the main thread and
// with scoring in the worker thread, `openclaw-rl forget` on a stopped run, a forget cut short by a
// crash, and retention. Each checks what a user would: the session's text is nowhere under the
// output folder (every byte of every file searched for a marker planted in it), the other
// sessions keep every turn, and the forgotten session does not come back after a restart.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { outcomeOf, runSession, startScoring } from '../pipeline/helpers.ts';
import { hintAnswer, type JudgeAnswer, type JudgePromptView } from '../support/scripted-judge.ts';
import { forgetCommand } from '../../src/cli/forget.ts';
import { filesHolding } from '../support/forget-kill.ts';
import { SampleStore } from '../../src/samples/index.ts';

const KEY = 'admin-key-for-tests';

const users = (marker: string) => [`Remind me to call ${marker} tomorrow`, `No, ${marker} is my dentist, thanks`, 'Great, bye.'];
const answers = (marker: string) => [`Reminder set: call ${marker}.`, `Updated: ${marker} (dentist).`, 'Bye!'];

async function del(url: string, path: string, key?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}${path}`, { method: 'DELETE', headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, body: await res.json() };
}

/**
 * A slow judge (so turns are written to the store as pending first) whose hints repeat the marker
 * (so the store's samples hold it as text too): the forget must scrub SQLite's pages, not only
 * the JSONL files.
 */
const judgeRepeating =
  (marker: string) =>
  (v: JudgePromptView): JudgeAnswer =>
    v.kind === 'hint' && JSON.stringify(v).includes(marker)
      ? { kind: 'slow_first_token', delayMs: 30, text: hintAnswer(`Call ${marker} by full name.`) }
      : { kind: 'slow_first_token', delayMs: 30, text: 'Fine. \\boxed{1}' };

for (const thread of [false, true]) {
  describe(`DELETE /sessions/:id (${thread ? 'scoring in the worker thread' : 'scoring on the main thread'})`, () => {
    test('removes the session from the journal, judge.jsonl and the store; others keep every turn; a restart does not bring it back', async () => {
      const marker = `Zorbalina-${thread ? 't' : 'm'}-4471`;
      let h = await startScoring({ mode: 'openclaw-combine', thread, apiKey: KEY, script: judgeRepeating(marker) });
      const outDir = h.outDir;
      try {
        await runSession(h, 'forget-me', users(marker), answers(marker));
        await runSession(h, 'keep-me', ['How do I boil an egg?', 'Thanks, perfect!', 'Bye.'], ['Boil it 8 minutes.', 'Enjoy!', 'Bye!']);
        await h.server.pipeline.whenIdle();
        const before = filesHolding(outDir, marker).map((f) => f.slice(outDir.length + 1));
        for (const f of ['records/turns.jsonl', 'records/judge.jsonl']) assert.ok(before.includes(f), `${f} held the marker: ${before}`);
        assert.ok(
          before.some((f) => f.startsWith('samples.sqlite')),
          `the store held the marker: ${before}`,
        );

        assert.equal((await del(h.url, '/sessions/forget-me')).status, 401, 'no key, no forget');
        const r = await del(h.url, '/sessions/forget-me', KEY);
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.equal(r.body.session_id, 'forget-me');
        assert.equal(r.body.through_turn, 3);
        assert.equal(r.body.deleted.samples + r.body.deleted.turn_drops, 3);
        assert.ok(r.body.deleted.journal_lines >= 6, `turn and next-state lines: ${r.body.deleted.journal_lines}`);
        assert.ok(r.body.deleted.log_lines >= 3, `judge.jsonl lines: ${r.body.deleted.log_lines}`);
        assert.equal(r.body.complete, true);
        assert.deepEqual(filesHolding(outDir, marker), []);
        const view = await fetch(`${h.url}/sessions/forget-me`, { headers: h.headers });
        assert.equal(view.status, 404);
        for (const t of [1, 2, 3]) assert.notEqual(outcomeOf(h, 'keep-me', t), 'unknown', `keep-me turn ${t}`);
        const unknown = await del(h.url, '/sessions/never-seen', KEY);
        assert.equal(unknown.status, 404);
        assert.match(unknown.body.error.message, /never-seen.*nothing to forget/);
      } finally {
        await h.close();
      }
      h = await startScoring({ mode: 'openclaw-combine', thread, apiKey: KEY, outDir, script: judgeRepeating(marker) });
      try {
        assert.deepEqual(filesHolding(outDir, marker), [], 'a restart (journal replay) does not bring it back');
        for (const t of [1, 2, 3]) assert.notEqual(outcomeOf(h, 'keep-me', t), 'unknown');
        await runSession(h, 'forget-me', ['A new start: what is the weather?', 'ok'], ['Sunny.', 'Bye!']);
        await h.server.pipeline.whenIdle();
        assert.equal(outcomeOf(h, 'forget-me', 3), 'unknown', 'forgotten turns stay forgotten');
        assert.notEqual(outcomeOf(h, 'forget-me', 4), 'unknown', 'numbering continues after the forgotten turns');
      } finally {
        await h.close();
      }
    });
  });
}

describe('openclaw-rl forget on a stopped run', () => {
  test('forgets a session in the folder, and finishes a forget a crash cut short at the next start', async () => {
    const a = 'Quillfeather-9083';
    const b = 'Marrowbank-5520';
    let h = await startScoring({ mode: 'openclaw-rl' });
    const outDir = h.outDir;
    try {
      await runSession(h, 'cli-forget', users(a), answers(a));
      await runSession(h, 'crash-forget', users(b), answers(b));
      await runSession(h, 'kept', ['Hi', 'thanks!'], ['Hello!', 'Bye.']);
      await h.server.pipeline.whenIdle();
    } finally {
      await h.close();
    }
    const out: string[] = [];
    const sink = { write: (s: string) => out.push(s) } as unknown as NodeJS.WritableStream;
    const reports = await forgetCommand({ session: 'cli-forget', dir: outDir }, sink, sink);
    assert.equal(reports[0].through_turn, 3);
    assert.equal(JSON.parse(out[0]).session_id, 'cli-forget');
    assert.deepEqual(filesHolding(outDir, a), []);
    await assert.rejects(forgetCommand({ dir: outDir }, sink, sink), /exactly one of --session ID or --before DATE/);
    await assert.rejects(forgetCommand({ before: 'last tuesday', dir: outDir }, sink, sink), /--before: "last tuesday" is not a date/);

    // A crash right after the store's transaction: the journal and judge.jsonl still hold the text.
    const store = SampleStore.open(join(outDir, 'samples.sqlite'), { recoverLeases: false });
    store.forgetSession('crash-forget', 3);
    store.close();
    assert.ok(filesHolding(outDir, b).some((f) => f.endsWith('turns.jsonl')));
    h = await startScoring({ mode: 'openclaw-rl', outDir });
    try {
      assert.deepEqual(filesHolding(outDir, b), [], 'the start finished the forget before replaying the journal');
      assert.equal(outcomeOf(h, 'crash-forget', 1), 'unknown');
      assert.notEqual(outcomeOf(h, 'kept', 1), 'unknown');
      assert.equal(h.server.tracker.sessionIds().includes('crash-forget'), false);
    } finally {
      await h.close();
    }
  });
});

describe('storage.retention_days', () => {
  test('forgets sessions idle longer than the retention period at start and hourly; /healthz shows the oldest kept turn', async () => {
    const old = 'Oldenbrook-3307';
    let h = await startScoring({ mode: 'openclaw-rl' });
    const outDir = h.outDir;
    try {
      await runSession(h, 'old-session', users(old), answers(old));
      await runSession(h, 'recent', ['Hi', 'thanks!'], ['Hello!', 'Bye.']);
      await h.server.pipeline.whenIdle();
    } finally {
      await h.close();
    }
    // Age the old session by 40 days, as if it had been recorded then.
    const db = new Database(join(outDir, 'samples.sqlite'));
    const then = Date.now() - 40 * 86_400_000;
    db.prepare(`UPDATE samples SET created_at = ? WHERE session_id = 'old-session'`).run(then);
    db.prepare(`UPDATE turn_drops SET dropped_at = ? WHERE session_id = 'old-session'`).run(then);
    db.close();
    h = await startScoring({ mode: 'openclaw-rl', outDir, overrides: { 'storage.retention_days': 30 } });
    try {
      for (let i = 0; i < 100 && outcomeOf(h, 'old-session', 1) !== 'unknown'; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(outcomeOf(h, 'old-session', 1), 'unknown');
      assert.notEqual(outcomeOf(h, 'recent', 1), 'unknown');
      assert.deepEqual(filesHolding(outDir, old), []);
      const health = (await (await fetch(`${h.url}/healthz`)).json()) as { storage: { oldest_turn_at: string; retention_days: number } };
      assert.equal(health.storage.retention_days, 30);
      assert.ok(Date.now() - Date.parse(health.storage.oldest_turn_at) < 3_600_000, health.storage.oldest_turn_at);
    } finally {
      await h.close();
    }
  });
});
