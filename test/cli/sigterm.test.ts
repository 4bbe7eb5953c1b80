// SIGTERM on the real command line with a judge call that never answers and a stream in flight:
// the process exits soon after server.shutdown_grace_s (not after judge.timeout_s), the stream
// ends with an error event and [DONE], and the judged turn stays pending, to be re-judged (and
// stored) at the next start. The exact timing is printed by `npm run bench:sigterm`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ScriptedUpstream } from '../support/scripted-upstream.ts';
import { sigtermScenario, startCli, exitOf, writeConfig } from '../support/sigterm-scenario.ts';
import { SampleStore } from '../../src/samples/index.ts';

test('SIGTERM with a hanging judge and a stream in flight exits after the grace period; the judged turn is re-judged at the next start', async () => {
  const policy = await new ScriptedUpstream().start();
  const judge = await new ScriptedUpstream().start();
  try {
    const r = await sigtermScenario(policy, judge, 1);
    assert.equal(r.exitCode, 0);
    assert.ok(r.judgeCallsInFlight > 0, 'a judge call was in flight');
    // Bound with slack for a loaded machine; before the fix it waited for judge.timeout_s (120 s).
    assert.ok(r.exitS < 1 + 4, `exited ${r.exitS.toFixed(2)} s after SIGTERM (grace 1 s)`);
    assert.ok(r.streamEndedCleanly, 'the stream ended with an error event and [DONE]');
    assert.equal(r.streamErrorCode, 'server_shutting_down');

    const store = SampleStore.open(join(r.outDir, 'samples.sqlite'), { recoverLeases: false });
    const pending = store.getTurnOutcome('judged', 1);
    store.close();
    assert.equal(pending?.status, 'pending', 'the turn whose judging was cut stays pending');

    judge.fallback = { kind: 'text', text: 'Helpful. \\boxed{1}' };
    const { path } = writeConfig(policy.url, judge.url, 1, r.outDir);
    const again = await startCli(path);
    try {
      let status: string | undefined;
      for (let i = 0; i < 200 && status !== 'samples'; i++) {
        await new Promise((res) => setTimeout(res, 50));
        const health = await (await fetch(`${again.url}/healthz`)).json();
        status = health.scoring.samples.pending === 0 ? 'samples' : undefined;
      }
      assert.equal(status, 'samples', 'the pending turn was re-judged at the next start');
    } finally {
      again.child.kill('SIGTERM');
      await exitOf(again.child);
    }
    const after = SampleStore.open(join(r.outDir, 'samples.sqlite'), { recoverLeases: false });
    try {
      const o = after.getTurnOutcome('judged', 1);
      assert.equal(o?.status, 'samples');
      assert.equal(o?.status === 'samples' ? o.samples[0].reward : null, 1);
    } finally {
      after.close();
    }
  } finally {
    await policy.stop();
    await judge.stop();
  }
});
