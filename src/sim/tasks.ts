// What the simulated users ask: everyday "how do I …" tasks on the pretraining corpus's topics
// (the embedded model only knows those, so its answers stay sensible and their style is what
// varies). Split two ways so a held-out rating measures style, not memorised prompts:
//   TRAIN_TASKS     21 topics × the corpus's question phrasings — what training episodes ask;
//   HELD_OUT_TASKS  10 other topics (2 per category) × the phrasings the corpus never used.
// No topic and no phrasing of the held-out set appears in a training episode.

import { OpenClawError } from '../errors/index.ts';
import { HELD_OUT_TEMPLATES, QUESTION_TEMPLATES, TOPICS, question, type Topic } from '../pretrain/index.ts';
import type { RandomSource } from './personas.ts';

/** One user task: the first message of an episode. */
export interface Task {
  /** Stable id `<topic>/<phrasing>` (phrasing `t<k>` for training, `h<k>` for held-out templates). */
  id: string;
  topicId: string;
  prompt: string;
}

/** Topics kept out of training episodes (two per category), for the held-out rating. */
export const HELD_OUT_TOPIC_IDS: readonly string[] = [
  'soup',
  'coffee',
  'flights',
  'safety',
  'sql',
  'variables',
  'notes',
  'essay',
  'plants',
  'email',
];

function tasksFor(topics: readonly Topic[], templates: readonly string[], tag: string): Task[] {
  return topics.flatMap((topic) =>
    templates.map((template, k) => ({ id: `${topic.id}/${tag}${k}`, topicId: topic.id, prompt: question(template, topic) })),
  );
}

const heldOutTopics = TOPICS.filter((t) => HELD_OUT_TOPIC_IDS.includes(t.id));
const trainTopics = TOPICS.filter((t) => !HELD_OUT_TOPIC_IDS.includes(t.id));

/** Tasks for training episodes. */
export const TRAIN_TASKS: readonly Task[] = tasksFor(trainTopics, QUESTION_TEMPLATES, 't');

/** Tasks for the rating metric; disjoint from TRAIN_TASKS in topic and phrasing. */
export const HELD_OUT_TASKS: readonly Task[] = tasksFor(heldOutTopics, HELD_OUT_TEMPLATES, 'h');

/** A uniformly drawn task. */
export function pickTask(rng: RandomSource, tasks: readonly Task[] = TRAIN_TASKS): Task {
  if (tasks.length === 0) throw new OpenClawError('invalid_request', 'pickTask needs at least one task (got an empty list)');
  return tasks[Math.floor(rng.uniform() * tasks.length)];
}
