// `npm run bench:judge`: the offline judge (or, with `--judge-config F`, the judge model that
// config F names) on the hand-labelled next states of bench/judge-set/. Prints, per set and per
// group (tool outputs; user replies per language): accuracy, recall of −1 / 0 / +1, hint recall,
// hint precision, the same two with the extent-tolerant match ("either extent", judge-metrics.ts
// `hintSameFix`), false hints on positive or neutral replies, sign flips (a −1 read as +1 or the
// reverse, as a share of all items) and coverage (±1 items given a non-zero verdict), and the offline judge's CPU time per
// reply. Targets: accuracy ≥ 0.85, −1 recall ≥ 0.85, hint recall ≥ 0.80, false hints ≤ 5%.
//   development sets (DEVELOPMENT_SETS): dev and heldout (the judge's authors), heldout-2,
//     heldout-3, train-blind, heldout-4, train-blind-2, heldout-5, heldout-6, train-blind-3,
//     train-blind-4, heldout-7, train-blind-5, heldout-8, heldout-9 and heldout-10 (independent
//     authors; all already measured); `--show-misses` lists their misses; scripts/train-judge.ts
//     trains the reply classifier on them.
//   sealed sets (SEALED_SETS, none now: heldout-10, the last, was measured for round 8; a new
//     one, written blind from blind-brief.md, is added here; skipped while absent): aggregates
//     only, never an item, not with
//     `--show-misses` either; no script trains on them; a missing file is reported and skipped.
// `--sets a,b` scores only those; `--rules-only` scores the rules without the classifier;
// `--redact` has the judge read every reply as a remote judge does under privacy.mode redact;
// `--loso` leaves one author group out at a time (train the classifier on the others, score it):
// the honest proxy for a set nobody here has read.
import { loadConfig } from '../src/config/index.ts';
import { Redactor } from '../src/privacy/index.ts';
import { channelFromSettings } from '../src/engines/openai-compatible/index.ts';
import { channelJudgeCall, runHintJudge, runPrmJudge, type JudgeCall, type JudgedTurnInput } from '../src/scoring/index.ts';
import { JudgeSchema } from '../src/config/schema.ts';
import { judgeReply, judgeToolOutput, loadReplyModel } from '../src/scoring/rules-reader/index.ts';
import { majorityVote } from '../src/scoring/vote.ts';
import type { ReplyModel } from '../src/scoring/rules-reader/reply-model.ts';
import {
  DEVELOPMENT_SETS,
  hintMatches,
  hintSameFix,
  loadJudgeSet,
  scoreJudgeSet,
  type Judgement,
  type JudgeSetItem,
} from './judge-metrics.ts';
import { groupItems, trainOnGroups } from './judge-train.ts';

/** Development sets: scored with per-item misses under `--show-misses`. */
const DEV_SETS = Object.values(DEVELOPMENT_SETS).flat();
/**
 * Sealed sets: never tuned on, never read by the judge's training script; the bench prints only
 * their aggregates (overall and per group) and never their items. A missing file is skipped.
 */
// pa-heldout-1 … -10 (personal-assistant traffic, assistant-brief.md) were sealed for the issue-36
// judges of rounds 1 … 9 (the last with the 13-language classifier), scored once each, then
// development data. The next set, written blind from assistant-brief.md by a helper who read
// nothing else, goes here as pa-heldout-11 (skipped while absent): score it once, then move it.
export const SEALED_SETS: readonly string[] = ['pa-heldout-15'];
const SETS = [...DEV_SETS, ...SEALED_SETS];
const SEALED = new Set<string>(SEALED_SETS);
/** Replies judged at once by a model judge (each is one PRM and one hint-judge call). */
const MODEL_CONCURRENCY = 4;
const args = process.argv.slice(2);
const configAt = args.indexOf('--judge-config');
const configPath = configAt >= 0 ? args[configAt + 1] : undefined;
if (configAt >= 0 && configPath === undefined) throw new Error('--judge-config needs a config file path');
const showMisses = args.includes('--show-misses');
// `--loso`: leave one author group out (see leaveOneGroupOut); `--rules-only`: no classifier.
const loso = args.includes('--loso');
const rulesOnly = args.includes('--rules-only');
// `--min-confidence X`: the offline judge abstains (0) below X; default judge.min_confidence's default.
const minAt = args.indexOf('--min-confidence');
const minConfidence = minAt >= 0 ? Number(args[minAt + 1]) : JudgeSchema.parse({}).min_confidence;
if (!(minConfidence >= 0 && minConfidence <= 1)) throw new Error('--min-confidence needs a number in [0, 1]');
const model = rulesOnly ? null : loadReplyModel();
// `--sets dev,heldout` scores only those sets (while tuning, the sealed set is not run at all).
const setsAt = args.indexOf('--sets');
const onlySets = setsAt >= 0 ? new Set((args[setsAt + 1] ?? '').split(',')) : null;
// `--redact`: the judge reads each reply as a remote judge would under privacy.mode redact
// (secrets and personal data as placeholders), and its hint gets the values back, as the teacher does.
const redacting = args.includes('--redact');
let redactedItems = 0;

/** The judge's verdict on `item`, read redacted under `--redact`. */
async function judgeAs(item: JudgeSetItem, judge: (item: JudgeSetItem) => Judgement | Promise<Judgement>): Promise<Judgement> {
  if (!redacting) return judge(item);
  const r = new Redactor();
  const text = r.redact(item.text);
  const context = item.context === undefined ? undefined : r.redact(item.context);
  if (text !== item.text || context !== item.context) redactedItems++;
  const got = await judge({ ...item, text, context });
  return { ...got, hint: got.hint === null ? null : r.restore(got.hint) };
}

// A model judge sees the reply after a generic exchange: the set labels the reply alone.
const CONTEXT = { prompt: 'Please help me with my request.', answer: 'Here is my answer to your request.' };

function turn(item: JudgeSetItem): JudgedTurnInput {
  return {
    promptMessages: [{ role: 'user', content: CONTEXT.prompt }],
    responseText: item.context ?? CONTEXT.answer,
    responseToolCalls: [],
    nextState: { role: item.role, content: item.text },
  };
}

async function modelJudge(call: JudgeCall, item: JudgeSetItem): Promise<Judgement> {
  const [prm, hint] = await Promise.all([
    runPrmJudge(turn(item), { call, m: 1 }),
    runHintJudge(turn(item), { call, m: 1, minHintChars: 0 }),
  ]);
  return { score: prm.score, hint: hint.hint };
}

async function main(): Promise<void> {
  let call: JudgeCall | null = null;
  let close = async () => {};
  if (configPath !== undefined) {
    const c = loadConfig(configPath);
    if (c.judge.provider !== 'openai_compatible')
      throw new Error(`${configPath}: judge.provider is ${c.judge.provider}; --judge-config needs an openai_compatible judge`);
    const channel = channelFromSettings('judge', c.judge, { maxRetries: 1, connections: 4 });
    close = () => channel.close();
    call = channelJudgeCall(channel, c.judge.model_id!);
  }
  if (loso) return leaveOneGroupOut();
  const mode = `${rulesOnly ? 'offline, rules only (no classifier)' : 'offline (judge.provider: rules)'}, min_confidence ${minConfidence}`;
  console.log(`judge: ${call === null ? mode : `model from ${configPath}`}${redacting ? ', reading replies redacted (--redact)' : ''}`);
  const all: Array<{ item: JudgeSetItem; got: Judgement }> = [];
  const assistant: Array<{ item: JudgeSetItem; got: Judgement }> = [];
  const timed: JudgeSetItem[] = [];
  let offlineMs = 0;
  for (const set of SETS) {
    if (onlySets !== null && !onlySets.has(set)) continue;
    const items = loadJudgeSet(set);
    if (items === null) {
      console.log(`${set.padEnd(22)} skipped: bench/judge-set/${set}.tsv is not there`);
      continue;
    }
    const results: Array<{ item: JudgeSetItem; got: Judgement }> = [];
    if (call === null) {
      for (const item of items) {
        const t0 = performance.now();
        const got = await judgeAs(item, (it) => offlineJudge(it, model));
        offlineMs += performance.now() - t0;
        results.push({ item, got });
      }
      timed.push(...items);
    } else {
      // A few replies at a time, so a remote judge model is not asked 600 times in a row.
      for (let i = 0; i < items.length; i += MODEL_CONCURRENCY) {
        const batch = items.slice(i, i + MODEL_CONCURRENCY);
        const judged = await Promise.all(batch.map((item) => judgeAs(item, (it) => modelJudge(call!, it))));
        batch.forEach((item, k) => results.push({ item, got: judged[k] }));
      }
    }
    // Sealed sets count in their own lines only, never in "all development sets".
    if (!SEALED.has(set)) all.push(...results);
    if (!SEALED.has(set) && set.startsWith('pa-')) assistant.push(...results);
    print(SEALED.has(set) ? `${set} (sealed)` : set, results);
    printGroups(set, results);
  }
  if (all.length > 0) print('all development sets', all);
  // The personal-assistant family (assistant-brief.md) pooled, per language and for tool outputs.
  if (assistant.length > 0) {
    print('assistant dev sets', assistant);
    printGroups('assistant', assistant);
  }
  if (redacting) console.log(`replies changed by redaction: ${redactedItems} of ${all.length}`);
  if (call === null && timed.length > 0) {
    // Time again now that the model is loaded and the code is warm (the first reply pays wink's
    // ~70 ms start): CPU time, the median of 5 passes over the set, as the machine may be busy.
    const passes: number[] = [];
    for (let p = 0; p < 5; p++) {
      const t0 = process.cpuUsage();
      for (const item of timed) offlineJudge(item, model);
      const used = process.cpuUsage(t0);
      passes.push((used.user + used.system) / 1000 / timed.length);
    }
    passes.sort((a, b) => a - b);
    console.log(
      `CPU time per reply: ${passes[2].toFixed(3)} ms (median of 5 passes; first pass incl. model load: ${(offlineMs / timed.length).toFixed(3)} ms wall)`,
    );
  }
  if (showMisses) for (const r of all) printMiss(r);
  await close();
}

/**
 * The offline judge on one item, with the given reply classifier (null: the rules alone),
 * abstaining below `--min-confidence` as the rules judge does below judge.min_confidence.
 */
function offlineJudge(item: JudgeSetItem, replyModel: ReplyModel | null): Judgement {
  const r =
    item.role === 'tool'
      ? judgeToolOutput(item.text, { action: item.context })
      : judgeReply(item.text, judgeContext(item) ?? {}, replyModel);
  // The rules judge's own rule: its one reading as a vote, below the minimum confidence a 0.
  return { score: majorityVote([r.score], { minConfidence, confidence: r.confidence }).score, hint: r.hint };
}

function printMiss({ item, got }: { item: JudgeSetItem; got: Judgement }): void {
  if (SEALED.has(item.set)) return;
  const hintOk = item.hint === null ? got.hint === null || item.score < 0 : got.hint !== null && hintMatches(item.hint, got.hint);
  // A hint that names the same fix at another extent is marked, so the two kinds of miss can be told apart.
  const extentOnly = !hintOk && item.hint !== null && got.hint !== null && hintSameFix(item.hint, got.hint);
  if (got.score !== item.score || !hintOk)
    console.log(
      `MISS ${item.set}:${item.line} want ${item.score} ${JSON.stringify(item.hint)} got ${got.score} ${JSON.stringify(got.hint)}${extentOnly ? ' [same fix, other extent]' : ''} :: ${item.text}`,
    );
}

/**
 * Leave one author group out: for each group of development sets, train the classifier on the
 * other groups (and the rules' examples), score the group left out. The sets have different
 * authors, so this is the honest proxy for a set nobody here has seen; the committed model's
 * scores on its own training sets are not. Also prints the rules alone on the same items.
 */
function leaveOneGroupOut(): void {
  console.log('leave-one-group-out: classifier trained without the group it scores');
  type Results = Array<{ item: JudgeSetItem; got: Judgement }>;
  const pooled = { rules: [] as Results, after: [] as Results };
  for (const group of Object.keys(DEVELOPMENT_SETS)) {
    const items = groupItems([group]);
    if (items.length === 0) {
      console.log(`${group.padEnd(22)} skipped: no set file`);
      continue;
    }
    const foldModel = trainOnGroups(Object.keys(DEVELOPMENT_SETS).filter((g) => g !== group));
    const rules = items.map((item) => ({ item, got: offlineJudge(item, null) }));
    const results = items.map((item) => ({ item, got: offlineJudge(item, foldModel) }));
    print(`${group} (rules only)`, rules);
    print(`${group} (left out)`, results);
    printGroups(group, results);
    if (group !== 'authors') {
      pooled.rules.push(...rules);
      pooled.after.push(...results);
    }
    if (showMisses) for (const r of results) printMiss(r);
  }
  print('independent sets, rules only', pooled.rules);
  print('independent sets, left out', pooled.after);
  printGroups('independent', pooled.after);
}

/** What the offline judge is told about the turn: the set's context line, as the assistant's answer. */
function judgeContext(item: JudgeSetItem): { answer?: string } | undefined {
  return item.context === undefined ? undefined : { answer: item.context };
}

/** Language of an item: the set's column, else a guess (CJK → zh) for the old sets. */
function langOf(item: JudgeSetItem): string {
  if (item.lang !== undefined) return item.lang;
  return /[\u3400-\u9fff]/.test(item.text) ? 'zh' : 'en';
}

/** The same numbers per group: tool outputs, and user replies per language. */
function printGroups(set: string, results: Array<{ item: JudgeSetItem; got: Judgement }>): void {
  const groups = new Map<string, Array<{ item: JudgeSetItem; got: Judgement }>>();
  const add = (k: string, r: { item: JudgeSetItem; got: Judgement }) => groups.set(k, [...(groups.get(k) ?? []), r]);
  for (const r of results) {
    add(r.item.role, r);
    if (r.item.role === 'user') add(`user/${langOf(r.item)}`, r);
  }
  for (const [k, rs] of [...groups].sort(([a], [b]) => a.localeCompare(b))) print(`  ${set}:${k}`, rs);
}

function print(name: string, results: Array<{ item: JudgeSetItem; got: Judgement }>): void {
  const m = scoreJudgeSet(results);
  const pct = (x: number) => x.toFixed(2);
  console.log(
    `${name.padEnd(22)} n=${String(m.n).padStart(3)}  accuracy ${pct(m.accuracy)}  recall −1 ${pct(m.recall[-1])} / 0 ${pct(m.recall[0])} / +1 ${pct(m.recall[1])}` +
      `  hint recall ${pct(m.hintRecall)}  hint precision ${pct(m.hintPrecision)}` +
      `  either extent ${pct(m.hintRecallEither)}/${pct(m.hintPrecisionEither)}  false hints ${(100 * m.falseHintRate).toFixed(1)}% (${m.falseHints}/${m.noHintNonNegative})` +
      `  sign flips ${(100 * m.signFlipRate).toFixed(1)}% (${m.signFlips})  coverage ${pct(m.coverage)}`,
  );
}

await main();
