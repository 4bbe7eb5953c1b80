// `npm run bench:judge`: the offline judge (or, with `--judge-config F`, the judge model that
// config F names) on the hand-labelled replies of bench/judge-set/ (dev.tsv, used while building
// the judge, and heldout.tsv, never tuned on). Prints, per set and overall: accuracy, recall of
// −1 / 0 / +1, hint recall, hint precision, false hints on positive or neutral replies, and the
// offline judge's time per reply, and the same per group (user/tool, language). heldout-2.tsv and
// heldout-3.tsv (each written from the labelling rules alone by someone who never read the judge;
// -3 is kept fresh for the next version of the judge) are scored too, in aggregate only: their
// items are never printed, not even with `--show-misses`. Targets: accuracy ≥ 0.85, −1 recall ≥ 0.85, hint
// recall ≥ 0.80, false hints ≤ 5%. `--show-misses` lists the replies judged wrong.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config/index.ts';
import { channelFromSettings } from '../src/engines/openai-compatible/index.ts';
import {
  channelJudgeCall,
  classifyNextState,
  runHintJudge,
  runPrmJudge,
  type JudgeCall,
  type JudgedTurnInput,
} from '../src/scoring/index.ts';
import { hintMatches, parseJudgeSet, parseJudgeSet2, scoreJudgeSet, type Judgement, type JudgeSetItem } from './judge-metrics.ts';

const SETS = ['dev', 'heldout', 'heldout-2', 'heldout-3'] as const;
/** Sets whose items are never printed (held out from whoever tunes the judge). */
const SEALED = new Set<string>(['heldout-2', 'heldout-3']);
/** Replies judged at once by a model judge (each is one PRM and one hint-judge call). */
const MODEL_CONCURRENCY = 4;
const args = process.argv.slice(2);
const configAt = args.indexOf('--judge-config');
const configPath = configAt >= 0 ? args[configAt + 1] : undefined;
if (configAt >= 0 && configPath === undefined) throw new Error('--judge-config needs a config file path');
const showMisses = args.includes('--show-misses');
// `--sets dev,heldout` scores only those sets (while tuning, the sealed set is not run at all).
const setsAt = args.indexOf('--sets');
const onlySets = setsAt >= 0 ? new Set((args[setsAt + 1] ?? '').split(',')) : null;

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
  console.log(`judge: ${call === null ? 'offline (judge.provider: rules)' : `model from ${configPath}`}`);
  const all: Array<{ item: JudgeSetItem; got: Judgement }> = [];
  let offlineMs = 0;
  for (const set of SETS) {
    if (onlySets !== null && !onlySets.has(set)) continue;
    const raw = readFileSync(join(import.meta.dirname, 'judge-set', `${set}.tsv`), 'utf8');
    const items = set.startsWith('heldout-') ? parseJudgeSet2(raw, set) : parseJudgeSet(raw, set);
    const results: Array<{ item: JudgeSetItem; got: Judgement }> = [];
    if (call === null) {
      for (const item of items) {
        const t0 = performance.now();
        const got = classifyNextState({ role: item.role, content: item.text }, judgeContext(item));
        offlineMs += performance.now() - t0;
        results.push({ item, got });
      }
    } else {
      // A few replies at a time, so a remote judge model is not asked 600 times in a row.
      for (let i = 0; i < items.length; i += MODEL_CONCURRENCY) {
        const batch = items.slice(i, i + MODEL_CONCURRENCY);
        const judged = await Promise.all(batch.map((item) => modelJudge(call!, item)));
        batch.forEach((item, k) => results.push({ item, got: judged[k] }));
      }
    }
    all.push(...results);
    print(set, results);
    printGroups(set, results);
  }
  print('all', all);
  if (call === null) {
    // Time again now that the model is loaded and the code is warm (the first reply pays wink's
    // ~70 ms start): CPU time, the median of 5 passes over the set, as the machine may be busy.
    const passes: number[] = [];
    for (let p = 0; p < 5; p++) {
      const t0 = process.cpuUsage();
      for (const { item } of all) classifyNextState({ role: item.role, content: item.text }, judgeContext(item));
      const used = process.cpuUsage(t0);
      passes.push((used.user + used.system) / 1000 / all.length);
    }
    passes.sort((a, b) => a - b);
    console.log(
      `CPU time per reply: ${passes[2].toFixed(3)} ms (median of 5 passes; first pass incl. model load: ${(offlineMs / all.length).toFixed(3)} ms wall)`,
    );
  }
  if (showMisses) {
    for (const { item, got } of all) {
      if (SEALED.has(item.set)) continue;
      const hintOk = item.hint === null ? got.hint === null || item.score < 0 : got.hint !== null && hintMatches(item.hint, got.hint);
      if (got.score !== item.score || !hintOk)
        console.log(
          `MISS ${item.set}:${item.line} want ${item.score} ${JSON.stringify(item.hint)} got ${got.score} ${JSON.stringify(got.hint)} :: ${item.text}`,
        );
    }
  }
  await close();
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
      `  hint recall ${pct(m.hintRecall)}  hint precision ${pct(m.hintPrecision)}  false hints ${(100 * m.falseHintRate).toFixed(1)}% (${m.falseHints}/${m.noHintNonNegative})`,
  );
}

await main();
