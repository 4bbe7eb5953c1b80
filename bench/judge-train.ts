// Training data and training of the offline judge's reply classifier (src/scoring/offline/
// reply-model.ts), shared by scripts/train-judge.ts (writes the committed model) and
// `npm run bench:judge -- --loso` (leave one author group out: train on the others, score it).
// Reads only the development sets (DEVELOPMENT_SETS) and the rules' own examples, never a sealed set.

import { RULE_EXAMPLES } from '../src/scoring/offline/examples.ts';
import { readFeedbackByRules } from '../src/scoring/offline/index.ts';
import { detectLanguage } from '../src/scoring/offline/languages.ts';
import { type ReplyExample, type ReplyModel, trainReplyModel } from '../src/scoring/offline/reply-model.ts';
import { DEVELOPMENT_SETS, type JudgeSetItem, loadJudgeSet } from './judge-metrics.ts';

/** The user replies of the named author groups (missing files skipped). */
export function groupItems(groups: readonly string[]): JudgeSetItem[] {
  return groups.flatMap((g) => (DEVELOPMENT_SETS[g] ?? []).flatMap((s) => loadJudgeSet(s) ?? []));
}

/** Labelled user replies → training examples (the rules' reading of each is a feature). */
export function toExamples(items: Array<{ text: string; score: 1 | 0 | -1 }>): ReplyExample[] {
  return items.map((i) => ({ text: i.text, reading: readFeedbackByRules(i.text), lang: detectLanguage(i.text), score: i.score }));
}

/** Trains on the user replies of the given groups plus the rules' examples. */
export function trainOnGroups(groups: readonly string[]): ReplyModel {
  const items = groupItems(groups).filter((i) => i.role === 'user');
  const examples = toExamples([...items, ...Object.values(RULE_EXAMPLES).flat()]);
  return trainReplyModel(examples);
}
