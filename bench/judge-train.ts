// Training data and training of the offline judge's reply classifier (src/scoring/rules-reader/
// reply-model.ts), shared by scripts/train-judge.ts (writes the committed model) and
// `npm run bench:judge -- --loso` (leave one author group out: train on the others, score it).
// Reads only the development sets (DEVELOPMENT_SETS) and the rules' own examples, never a sealed set.

import { RULE_EXAMPLES } from '../src/scoring/rules-reader/examples.ts';
import { readFeedbackByRules } from '../src/scoring/rules-reader/index.ts';
import { detectLanguage } from '../src/scoring/rules-reader/languages.ts';
import { type ReplyExample, type ReplyModel, trainReplyModel } from '../src/scoring/rules-reader/reply-model.ts';
import { DEVELOPMENT_SETS, type JudgeSetItem, loadJudgeSet } from './judge-metrics.ts';

/** The user replies of the named author groups (missing files skipped). */
export function groupItems(groups: readonly string[]): JudgeSetItem[] {
  return groups.flatMap((g) => (DEVELOPMENT_SETS[g] ?? []).flatMap((s) => loadJudgeSet(s) ?? []));
}

/** Labelled user replies → training examples (the rules' reading of each is a feature). */
export function toExamples(items: Array<{ text: string; score: 1 | 0 | -1; context?: string }>): ReplyExample[] {
  // The rules read each reply with its set's context line as the answer, as bench:judge does.
  return items.map((i) => ({
    text: i.text,
    reading: readFeedbackByRules(i.text, { answer: i.context }),
    lang: detectLanguage(i.text),
    score: i.score,
  }));
}

/**
 * Weight of a group's replies in training. The first authors label a follow-up after a result 0
 * where every independent writer labels it +1 (and the next sealed set is written like theirs);
 * at a quarter weight their replies still teach phrasings without outvoting that convention
 * (leave-one-group-out on the independent sets: 0.901 at weight 1, 0.914 at 0.25, docs/judge.md).
 */
const GROUP_WEIGHT: Readonly<Record<string, number>> = { authors: 0.25 };

/** Trains on the user replies of the given groups plus the rules' examples. */
export function trainOnGroups(groups: readonly string[]): ReplyModel {
  const weights = new Map<ReplyExample, number>();
  const examples = groups.flatMap((g) => {
    const own = toExamples(groupItems([g]).filter((i) => i.role === 'user'));
    for (const e of own) weights.set(e, GROUP_WEIGHT[g] ?? 1);
    return own;
  });
  examples.push(...toExamples(Object.values(RULE_EXAMPLES).flat()));
  return trainReplyModel(examples, { weightOf: (e) => weights.get(e) ?? 1 });
}
