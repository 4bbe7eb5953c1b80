import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../rl/index.ts';
import { generateCorpus, QUESTION_TEMPLATES, TOPICS } from '../pretrain/index.ts';
import { HELD_OUT_TASKS, HELD_OUT_TOPIC_IDS, TRAIN_TASKS, pickTask } from './tasks.ts';

test('the other topics × the corpus phrasings train; 10 held-out topics × the 2 unseen phrasings rate', () => {
  assert.equal(TRAIN_TASKS.length, (TOPICS.length - 10) * QUESTION_TEMPLATES.length);
  assert.equal(HELD_OUT_TASKS.length, 10 * 2);
  assert.deepEqual([...new Set(HELD_OUT_TASKS.map((t) => t.topicId))].sort(), [...HELD_OUT_TOPIC_IDS].sort());
  assert.equal(new Set([...TRAIN_TASKS, ...HELD_OUT_TASKS].map((t) => t.id)).size, TRAIN_TASKS.length + 20, 'ids are unique');
  assert.equal(HELD_OUT_TASKS[0].prompt, 'Could you walk me through how to make vegetable soup?');
});

test('held-out tasks share no topic with training tasks, and their phrasings are absent from the pretraining corpus', () => {
  const trainTopics = new Set(TRAIN_TASKS.map((t) => t.topicId));
  for (const t of HELD_OUT_TASKS) assert.ok(!trainTopics.has(t.topicId), t.id);
  const corpusUserTexts = new Set(
    generateCorpus(3000, 5).flatMap((d) => d.messages.filter((m) => m.role === 'user').map((m) => String(m.content).split('\n')[0])),
  );
  for (const t of HELD_OUT_TASKS) assert.ok(!corpusUserTexts.has(t.prompt), t.prompt);
  assert.ok(
    TRAIN_TASKS.some((t) => corpusUserTexts.has(t.prompt)),
    'training prompts are phrased like the corpus',
  );
});

test('pickTask is deterministic given the seed and refuses an empty list', () => {
  const draw = (seed: number) => {
    const rng = new Rng(seed);
    return Array.from({ length: 10 }, () => pickTask(rng).id);
  };
  assert.deepEqual(draw(9), draw(9));
  assert.notDeepEqual(draw(9), draw(10));
  assert.throws(() => pickTask(new Rng(1), []), /at least one task/);
});
