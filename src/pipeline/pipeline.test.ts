// The pipeline without HTTP: session-level rules, shutdown while judging, token-data drops, and
// that no per-session state outlives its session. Turns are built by hand as the tracker emits them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseConfig } from '../config/index.ts';
import { SampleStore } from '../samples/index.ts';
import { createJudge, type JudgeCall } from '../scoring/index.ts';
import { ScoringPipeline } from './pipeline.ts';
import { finalizedTurn as turn } from '../../test/support/turn-fixture.ts';
import { tempDir } from '../../test/support/temp.ts';

function setup(call: JudgeCall, overrides: Record<string, unknown> = {}) {
  const dir = tempDir('ocrl-pipe-unit-');
  const config = parseConfig(
    { judge: { provider: 'openai_compatible', base_url: 'http://127.0.0.1:9', model_id: 'j' } },
    { env: {}, overrides: { output_dir: dir, mode: 'openclaw-rl', 'scoring.majority_vote': 1, ...overrides } },
  );
  const store = SampleStore.open(join(dir, 'samples.sqlite'));
  const pipeline = new ScoringPipeline({ config, store, judge: createJudge(config, { call }).judge });
  return { store, pipeline };
}

const neutral: JudgeCall = async () => '\\boxed{0}';

test('at-least-one waits for judging still in flight when the session closes, then frees the session', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const { store, pipeline } = setup(async () => {
    await gate;
    return '\\boxed{0}';
  });
  pipeline.onTurnFinalized(turn('s', 1, 'ok'));
  pipeline.onTurnFinalized(turn('s', 2, 'fine'));
  pipeline.onTurnFinalized(turn('s', 3, null));
  pipeline.onSessionClosed('s');
  await new Promise((r) => setImmediate(r));
  assert.equal(store.countPending(), 2, 'judged turns wait for their judge; the unanswered one needs none');
  assert.equal(pipeline.gauges().sessions_holding, 1);
  release();
  await pipeline.whenIdle();
  const masks = store.listSamples({ sessionId: 's' }).map((s) => [s.turnId, s.lossMask, s.reward]);
  assert.deepEqual(masks.sort(), [
    [1, 1, 0],
    [2, 0, 0],
    [3, 0, 0],
  ]);
  assert.equal(pipeline.gauges().sessions_holding, 0, 'no per-session state after the session');
  assert.equal(pipeline.counters.counts.samples_promoted, 1);
  await pipeline.close();
  store.close();
});

test('a turn ending its session closes it even without a close event (evicted while in flight)', async () => {
  const { store, pipeline } = setup(neutral);
  pipeline.onTurnFinalized(turn('e', 1, 'ok'));
  pipeline.onTurnFinalized(turn('e', 2, null, 'expired'));
  await pipeline.whenIdle();
  assert.equal(store.countPending(), 0);
  assert.deepEqual(
    store
      .listSamples({ sessionId: 'e' })
      .map((s) => s.lossMask)
      .sort(),
    [0, 1],
  );
  assert.equal(pipeline.gauges().sessions_holding, 0);
  await pipeline.close();
  store.close();
});

test('a trainable turn releases the held ones at once, before the session ends', async () => {
  const { store, pipeline } = setup(async (messages) => (String(messages[1].content).includes('thanks') ? '\\boxed{1}' : '\\boxed{0}'));
  pipeline.onTurnFinalized(turn('t', 1, 'ok'));
  await pipeline.whenIdle();
  assert.equal(store.countPending(), 1, 'held: at-least-one may still promote it');
  pipeline.onTurnFinalized(turn('t', 2, 'thanks'));
  await pipeline.whenIdle();
  assert.equal(store.countPending(), 0);
  assert.deepEqual(
    store
      .listSamples({ sessionId: 't' })
      .map((s) => [s.turnId, s.lossMask])
      .sort(),
    [
      [1, 0],
      [2, 1],
    ],
  );
  await pipeline.close();
  store.close();
});

test('shutdown while a judge call hangs leaves the turn pending instead of deciding on fail votes', async () => {
  const { store, pipeline } = setup(() => new Promise<string>(() => undefined), { mode: 'openclaw-combine' });
  pipeline.onTurnFinalized(turn('h', 1, 'ok'));
  await pipeline.close(50);
  assert.equal(store.countPending(), 1);
  assert.equal(store.getTurnOutcome('h', 1)?.status, 'pending');
  store.close();
});

test('turns without token ids or log-probs are dropped with a counted reason, without judging', async () => {
  let calls = 0;
  const { store, pipeline } = setup(async () => {
    calls++;
    return '\\boxed{1}';
  });
  pipeline.onTurnFinalized(turn('n', 1, 'thanks', 'session_done', false));
  await pipeline.whenIdle();
  const o = store.getTurnOutcome('n', 1);
  assert.equal(o?.status === 'dropped' && o.reason, 'no_token_data');
  assert.equal(calls, 0);
  assert.equal(pipeline.gauges().dropped_no_token_data, 1);
  await pipeline.close();
  store.close();
});

test('a second turn with the same id is refused by the store and counted, not thrown at the gateway', async () => {
  const { store, pipeline } = setup(neutral, { mode: 'openclaw-combine' });
  pipeline.onTurnFinalized(turn('d', 1, 'ok'));
  assert.doesNotThrow(() => pipeline.onTurnFinalized(turn('d', 1, 'ok')));
  assert.equal(pipeline.counters.counts.store_errors, 1);
  await pipeline.whenIdle();
  await pipeline.close();
  store.close();
});

test('queued turns count as work: whenIdle waits for the timer to drain them, the session end behind them', async () => {
  const { store, pipeline } = setup(neutral);
  pipeline.queueTurnFinalized(turn('q', 1, 'ok'));
  pipeline.queueTurnFinalized(turn('q', 2, 'fine'));
  pipeline.queueSessionClosed('q');
  assert.equal(store.countPending() + store.listSamples({ sessionId: 'q' }).length, 0, 'nothing stored before the drain');
  await pipeline.whenIdle();
  const masks = store.listSamples({ sessionId: 'q' }).map((s) => [s.turnId, s.lossMask]);
  assert.deepEqual(
    masks.sort(),
    [
      [1, 1],
      [2, 0],
    ],
    'the close came after both turns were judged: the first was promoted',
  );
  assert.equal(pipeline.gauges().sessions_holding, 0);
  await pipeline.close();
  store.close();
});

test('feedback on a held turn decides it again at once', async () => {
  const { store, pipeline } = setup(neutral);
  pipeline.onTurnFinalized(turn('h', 1, 'ok'));
  await pipeline.whenIdle();
  assert.equal(store.countPending(), 1, 'a neutral turn is held for at-least-one');
  const r = pipeline.submitFeedback({ sessionId: 'h', turnId: 1, score: 1, comment: null }, [1]);
  assert.equal(r.status, 'applied');
  assert.equal(store.countPending(), 0);
  assert.deepEqual(
    store.listSamples({ sessionId: 'h' }).map((s) => [s.lossMask, s.reward]),
    [[1, 1]],
  );
  await pipeline.close();
  store.close();
});

test('a session that goes on after a restart: its new turn is not held when the session already has a trainable turn', async () => {
  const dir = tempDir('ocrl-pipe-resume-');
  const open = (call: JudgeCall) => {
    const config = parseConfig(
      { judge: { provider: 'openai_compatible', base_url: 'http://127.0.0.1:9', model_id: 'j' } },
      { env: {}, overrides: { output_dir: dir, mode: 'openclaw-rl', 'scoring.majority_vote': 1 } },
    );
    const store = SampleStore.open(join(dir, 'samples.sqlite'));
    return { store, pipeline: new ScoringPipeline({ config, store, judge: createJudge(config, { call }).judge }) };
  };
  const before = open(() => new Promise<string>(() => undefined));
  before.pipeline.onTurnFinalized(turn('r', 1, 'ok'));
  before.pipeline.onTurnFinalized(turn('r', 2, 'thanks'));
  await before.pipeline.close(50);
  before.store.close();

  const after = open(async (messages) => (String(messages[1].content).includes('thanks') ? '\\boxed{1}' : '\\boxed{0}'));
  assert.equal(after.pipeline.start(), 2);
  await after.pipeline.whenIdle();
  assert.equal(after.store.countPending(), 0, 'the re-judged turns are resolved: the session counts as ended');
  // The same session's next turn arrives after re-judging finished (the order a slow client sees).
  after.pipeline.onTurnFinalized(turn('r', 3, 'fine'));
  await after.pipeline.whenIdle();
  assert.equal(after.store.countPending(), 0, 'turn 2 is already trainable: nothing to hold turn 3 for');
  assert.deepEqual(
    after.store
      .listSamples({ sessionId: 'r' })
      .map((s) => [s.turnId, s.lossMask, s.reward])
      .sort(),
    [
      [1, 0, 0],
      [2, 1, 1],
      [3, 0, 0],
    ],
  );
  assert.equal(after.pipeline.gauges().sessions_holding, 1, 'the session is open again until it ends');
  await after.pipeline.close();
  after.store.close();
});

test('a hosted trainer never gets a prompt holding a secret (secret_in_sample); a local one, or allow, does', async () => {
  const key = `AKIA${'QWERTYUIOPASDFGH'}`;
  const withKey = (sessionId: string) => {
    const t = turn(sessionId, 1, 'ok');
    t.messages = [{ role: 'user', content: `deploy with AWS_ACCESS_KEY_ID=${key}` }];
    return t;
  };
  const tinker = (base_url: string, extra: Record<string, unknown> = {}) => ({
    'rollout.provider': 'tinker',
    'rollout.temperature': 1,
    'tinker.base_url': base_url,
    'tinker.base_model': 'Qwen/Qwen3-8B',
    ...extra,
  });
  const outcomes: string[] = [];
  for (const overrides of [
    tinker('https://tinker.example.org'),
    tinker('http://127.0.0.1:8000'),
    tinker('https://tinker.example.org', { 'privacy.hosted_trainer': 'allow' }),
  ]) {
    const { store, pipeline } = setup(neutral, overrides);
    pipeline.onTurnFinalized(withKey('k'));
    pipeline.onTurnFinalized(turn('plain', 1, 'ok'));
    await pipeline.whenIdle();
    const o = store.getTurnOutcome('k', 1)!;
    outcomes.push(o.status === 'dropped' ? `dropped:${o.reason}` : o.status);
    assert.notEqual(store.getTurnOutcome('plain', 1)?.status, 'dropped', 'a prompt without a secret trains everywhere');
    await pipeline.close();
    store.close();
  }
  // Judged as usual where the trainer is local or allowed (a neutral turn waits for its session: at-least-one).
  assert.deepEqual(outcomes, ['dropped:secret_in_sample', 'pending', 'pending']);
});
