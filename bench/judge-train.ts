// Training data and training of the offline judge's reply classifier (src/scoring/offline/
// reply-model.ts) and hint-span ranker (hint-span.ts), shared by scripts/train-judge.ts (writes the committed model) and
// `npm run bench:judge -- --loso` (leave one author group out: train on the others, score it).
// Reads only the development sets (DEVELOPMENT_SETS) and the rules' own examples, never a sealed set.

import { correctionHint } from '../src/scoring/offline/corrections.ts';
import { RULE_EXAMPLES } from '../src/scoring/offline/examples.ts';
import { type HintContext, type HintModel, bestCandidate, rankedCandidates } from '../src/scoring/offline/hint-span.ts';
import { readFeedback, readFeedbackByRules } from '../src/scoring/offline/index.ts';
import { detectLanguage } from '../src/scoring/offline/languages.ts';
import { type ReplyExample, type ReplyModel, type SoftmaxRow, trainReplyModel, trainSoftmax } from '../src/scoring/offline/reply-model.ts';
import { readToolOutputByRules, unwrap } from '../src/scoring/offline/tools/index.ts';
import { DEVELOPMENT_SETS, type JudgeSetItem, type Judgement, hintMatches, loadJudgeSet, scoreJudgeSet } from './judge-metrics.ts';

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

/** Groups whose hints are the writer's paraphrases, not spans of the next state: measured, never trained on for hints. */
export const PARAPHRASED_HINT_GROUPS: readonly string[] = ['heldout-2'];
/**
 * Groups whose misses the hint rules were never tuned on: the ranker's thresholds are chosen on
 * these (left out). On the others the rules' hints are in-sample (heldout-3's hint recall went
 * from 0.39 to 0.78 by tuning on it), so a ranker can only lose there.
 */
export const UNTUNED_HINT_GROUPS: readonly string[] = [
  'heldout-4',
  'train-blind-2',
  'heldout-5',
  'heldout-6',
  'train-blind-3',
  'train-blind-4',
  'heldout-7',
  'train-blind-5',
  'heldout-8',
  'heldout-9',
  'heldout-10',
];

/** Training knobs of the hint-span ranker (leave-one-group-out top-1 within ±0.01 for l2 1e-4…1e-3, lr 0.02…0.05). */
const HINT_TRAIN = { epochs: 30, learningRate: 0.05, l2: 1e-3, minCount: 2 };
/** Thresholds before any are chosen (the folds of leave-one-group-out score with the committed ones). */
export const DEFAULT_HINT_THRESHOLDS = { replaceAt: 0.3, addAt: 0.9 };

/** The text the ranker reads: a tool output without its `{"exit_code": …}` wrapper. */
function hintText(item: JudgeSetItem): string {
  return item.role === 'tool' ? unwrap(item.text).text : item.text;
}

/** The rules' reading of an item as the hint ranker's context, with the given verdict. */
export function hintContextOf(item: JudgeSetItem, score: 1 | 0 | -1): HintContext {
  if (item.role === 'tool') return { role: 'tool', lang: 'tool', score, rulesHint: readToolOutputByRules(item.text).hint };
  const lang = detectLanguage(item.text);
  const rules = readFeedback(item.text, {}, null, null);
  return { role: 'user', lang, score, rulesHint: rules.hint, correction: score === -1 ? correctionHint(item.text, lang) : null };
}

/**
 * Hint-ranker rows of the given groups and the rules' examples: every candidate of a next state that has a quoted hint
 * (positive when hintMatches) or a −1 label without one (all negative). Next states whose hint
 * no candidate matches teach nothing and are left out. Each next state weighs the same in all
 * (a 60-line log does not outweigh a one-line reply).
 */
export function hintRows(groups: readonly string[]): SoftmaxRow[] {
  const rows: SoftmaxRow[] = [];
  // The rules' own examples too (as for the classifier): "Redo it please." asks again, it states no fix.
  const examples = Object.values(RULE_EXAMPLES)
    .flat()
    .map((e, i): JudgeSetItem => ({ set: 'examples', line: i + 1, role: 'user', ...e }));
  for (const item of [...groupItems(groups.filter((g) => !PARAPHRASED_HINT_GROUPS.includes(g))), ...examples]) {
    if (item.score === 0 || (item.hint === null && item.score === 1)) continue;
    const ranked = rankedCandidates(hintText(item), hintContextOf(item, item.score));
    const targets = ranked.map(({ candidate }) => (item.hint !== null && hintMatches(item.hint, candidate.text) ? 1 : 0));
    if (item.hint !== null && !targets.includes(1)) continue;
    ranked.forEach(({ features }, k) => rows.push({ features, target: targets[k], weight: 4 / ranked.length }));
  }
  return rows;
}

/** Trains the hint-span ranker on the given groups. */
export function trainHintOnGroups(groups: readonly string[], thresholds = DEFAULT_HINT_THRESHOLDS): HintModel {
  const { bias, weights } = trainSoftmax(hintRows(groups), 2, HINT_TRAIN);
  return { version: 1, ...thresholds, bias, weights };
}

/** One scored next state with its fold's verdict, the rules' hint and the ranker's best candidate. */
export interface HintOutcome {
  item: JudgeSetItem;
  score: 1 | 0 | -1;
  rulesHint: string | null;
  best: { text: string; prob: number } | null;
}

/**
 * Leave one author group out for the hints: per group, the reply classifier and the hint ranker
 * trained on the others; the verdict, the rules' hint and the best candidate of each next state.
 */
export function hintOutcomesByGroup(): Map<string, HintOutcome[]> {
  const groups = Object.keys(DEVELOPMENT_SETS);
  const out = new Map<string, HintOutcome[]>();
  for (const group of groups) {
    const items = groupItems([group]);
    if (items.length === 0) continue;
    const others = groups.filter((g) => g !== group);
    const replyModel = trainOnGroups(others);
    const hintModel = trainHintOnGroups(others);
    out.set(
      group,
      items.map((item) => {
        const r = item.role === 'tool' ? readToolOutputByRules(item.text) : readFeedback(item.text, {}, replyModel, null);
        const slot = r.score === -1 || (r.score === 1 && r.hint !== null);
        const best = slot ? bestCandidate(hintModel, hintText(item), { ...hintContextOf(item, r.score), rulesHint: r.hint }) : null;
        return { item, score: r.score, rulesHint: r.score === 0 ? null : r.hint, best };
      }),
    );
  }
  return out;
}

/** The judgement of an outcome at the given thresholds (selectHintSpan's decision). */
export function judgeAt(o: HintOutcome, t: { replaceAt: number; addAt: number }): Judgement {
  if (o.best === null) return { score: o.score, hint: o.rulesHint };
  const at = o.rulesHint === null ? t.addAt : t.replaceAt;
  return { score: o.score, hint: o.best.prob >= at ? o.best.text : o.rulesHint };
}

/** How far below the rules' precision over all quoted-hint groups (tuned ones included) a ranker may fall. */
const IN_SAMPLE_SLACK = 0.02;
/**
 * Least gain in left-out hint recall for which the ranker is turned on: it changes which span is
 * given on many replies (952 of the learning bench's 24,005 simulated replies at round 7, for
 * +0.004), and the teacher reads the hint's exact words, so a change within the noise is not made.
 */
const MIN_RECALL_GAIN = 0.01;

/**
 * The thresholds with the highest hint recall over the untuned groups (left out), among those
 * that keep false hints ≤ 5% in every left-out group with quoted hints (or at the rules' own rate
 * where that is higher), hint precision at least the rules' own over the untuned groups, and over
 * all quoted-hint groups within IN_SAMPLE_SLACK of the rules' (there the rules' hints are partly
 * in-sample, so they are favoured), and recall at least MIN_RECALL_GAIN above the rules'; the
 * rules alone when none does.
 */
export function chooseHintThresholds(outcomes: Map<string, HintOutcome[]>): {
  thresholds: { replaceAt: number; addAt: number };
  table: string[];
} {
  const quoted = [...outcomes].filter(([g]) => !PARAPHRASED_HINT_GROUPS.includes(g));
  const untuned = quoted.filter(([g]) => UNTUNED_HINT_GROUPS.includes(g)).flatMap(([, os]) => os);
  const all = quoted.flatMap(([, os]) => os);
  const score = (os: HintOutcome[], t: { replaceAt: number; addAt: number }) =>
    scoreJudgeSet(os.map((o) => ({ item: o.item, got: judgeAt(o, t) })));
  const never = { replaceAt: 2, addAt: 2 };
  const rules = { untuned: score(untuned, never), all: score(all, never) };
  const ruleFalse = quoted.map(([, os]) => score(os, never).falseHintRate);
  const line = (name: string, m: ReturnType<typeof score>) =>
    `${name}: hint recall ${m.hintRecall.toFixed(3)} precision ${m.hintPrecision.toFixed(3)} false hints ${m.falseHints}/${m.noHintNonNegative}`;
  const table = [
    line(`rules alone, untuned (n=${untuned.length})`, rules.untuned) + `; all quoted: precision ${rules.all.hintPrecision.toFixed(3)}`,
  ];
  let chosen = never;
  let bestRecall = rules.untuned.hintRecall;
  const grid = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95];
  for (const replaceAt of grid)
    for (const addAt of grid) {
      if (addAt < replaceAt) continue;
      const t = { replaceAt, addAt };
      const m = score(untuned, t);
      const pooled = score(all, t);
      const falseOk = quoted.every(([, os], k) => score(os, t).falseHintRate <= Math.max(0.05, ruleFalse[k]));
      table.push(
        `${line(`replace ≥ ${replaceAt}, add ≥ ${addAt}`, m)}; all quoted: precision ${pooled.hintPrecision.toFixed(3)}${falseOk ? '' : ', false hints > 5% in a group'}`,
      );
      const precisionOk =
        m.hintPrecision >= rules.untuned.hintPrecision && pooled.hintPrecision >= rules.all.hintPrecision - IN_SAMPLE_SLACK;
      if (falseOk && precisionOk && m.hintRecall > bestRecall + 1e-9 && m.hintRecall >= rules.untuned.hintRecall + MIN_RECALL_GAIN) {
        bestRecall = m.hintRecall;
        chosen = t;
      }
    }
  return { thresholds: chosen, table };
}
