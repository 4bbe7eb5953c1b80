// The scoring thread without HTTP: turns cross to the worker intact (typed arrays, moved not
// copied), come out as samples in the shared store with judgements and numbers sent back, and a
// thread that stops leaves the caller with counted losses and a health entry, never a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { parseConfig } from '../config/index.ts';
import { SessionViews } from '../gateway/index.ts';
import { SampleStore } from '../samples/index.ts';
import { ScoringThread } from './thread.ts';
import { packTurn, SCORING_NICE, unpackTurn } from './thread-protocol.ts';
import { finalizedTurn } from '../../test/support/turn-fixture.ts';
import { tempDir } from '../../test/support/temp.ts';

test('a turn crosses the thread boundary with its token arrays as typed arrays, moved with it', () => {
  const turn = finalizedTurn('s', 4, 'thanks');
  turn.prefix = ['a1b2'];
  turn.response!.logprobMask = [1, 1];
  const { turn: packed, transfer } = packTurn(turn);
  assert.ok(packed.response!.promptIds instanceof Int32Array);
  assert.ok(packed.response!.logprobs instanceof Float64Array);
  assert.equal(transfer.length, 4, 'prompt ids, response ids, log-prob mask and log-probs');
  assert.equal('prefix' in packed, false, 'the prefix hashes stay on the main thread');
  const back = unpackTurn(structuredClone(packed, { transfer }));
  assert.deepEqual(back.response, turn.response);
  assert.deepEqual(
    [back.sessionId, back.turnId, back.messages, back.nextState],
    [turn.sessionId, turn.turnId, turn.messages, turn.nextState],
  );
});

function setup() {
  const dir = tempDir('ocrl-thread-');
  const config = parseConfig({}, { env: {}, overrides: { output_dir: dir, mode: 'openclaw-rl' } });
  const store = SampleStore.open(join(dir, 'samples.sqlite'));
  const views = new SessionViews();
  return { config, store, views, dir };
}

test('turns handed to the thread become samples in the shared store; judgements and numbers come back', async () => {
  const { config, store, views } = setup();
  const stage = await ScoringThread.start({ config, storePath: store.path, views, log: pino({ level: 'silent' }) });
  try {
    assert.equal(stage.health().thread, 'worker');
    if (existsSync('/proc/self/task')) {
      // Field 19 of a task's stat is its nice value: one thread of this process now runs SCORING_NICE lower.
      const nices = readdirSync('/proc/self/task').map((tid) =>
        Number(
          readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
            .replace(/^.*\) /, '')
            .split(' ')[16],
        ),
      );
      assert.ok(nices.includes(nices[0] + SCORING_NICE), `thread nice values ${nices.join(',')}`);
    }
    assert.equal(stage.gauges().turns_acknowledged, 0, 'the full key set is there from the start');
    const t1 = finalizedTurn('w', 1, 'Thanks, that is perfect!');
    views.turnCompleted(t1);
    stage.queueTurnFinalized(t1);
    stage.queueTurnFinalized(finalizedTurn('w', 2, null, 'session_done'));
    stage.queueSessionClosed('w');
    await stage.whenIdle();
    assert.deepEqual([stage.gauges().turns_acknowledged, stage.gauges().samples_trainable], [2, 1]);
    const s = store.getTurnOutcome('w', 1);
    assert.ok(s?.status === 'samples');
    assert.deepEqual(
      [s.samples[0].reward, s.samples[0].lossMask, s.samples[0].responseIds, s.samples[0].rolloutLogprobs],
      [1, 1, [11, 21], [-0.5, -0.25]],
    );
    assert.equal(views.turns('w')?.[0].judgement?.score, 1, 'the judgement reached the session views');
  } finally {
    await stage.close();
    store.close();
  }
});

test('a scoring thread that stops: turns are counted as lost, health says why, nothing hangs', async () => {
  const { config, store, views } = setup();
  const stage = await ScoringThread.start({ config, storePath: store.path, views, log: pino({ level: 'silent' }) });
  try {
    // As if the thread died (out of memory, a native crash): what the caller sees afterwards.
    await (stage as unknown as { client: { terminate(reason: string): Promise<void> } }).client.terminate('gone');
    stage.queueTurnFinalized(finalizedTurn('x', 1, 'ok'));
    stage.drainIntake();
    assert.equal(stage.gauges().store_errors, 1);
    assert.deepEqual([stage.health().thread, stage.health().thread_error], ['stopped', 'gone']);
    await stage.whenIdle();
    await assert.rejects(Promise.resolve(stage.submitFeedback({ sessionId: 'x', turnId: 1, score: 1, comment: null })), /gone/);
  } finally {
    await stage.close();
    store.close();
  }
});
