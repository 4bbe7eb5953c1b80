// `npm run bench:judge-agreement`: how much people given the same labelling brief agree with each
// other — the ceiling a judge can be held to. Relabellers (bench/judge-set/relabel-*.tsv, columns
// `rid set id label hint`) labelled written sets again from bench/judge-set/relabel-brief.md,
// without the writers' labels and without reading this project: relabel-a and relabel-b the next
// states of heldout-7 and train-blind-4, relabel-c train-blind-5's, relabel-d heldout-8's,
// relabel-e heldout-9's, relabel-f heldout-10's. Each pair (writer against a relabeller,
// relabeller against relabeller) is scored as if one were the set and the other a judge, with the
// bench's own metrics. Baselines that need no understanding (the whole next state as the hint,
// its last sentence) show what the hint matches give away for free.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenClawError } from '../src/errors/index.ts';
import { loadJudgeSet, scoreJudgeSet, type Judgement, type JudgeSetItem } from './judge-metrics.ts';

const DIR = join(import.meta.dirname, 'judge-set');
/** Each relabeller and the sets it read (rows named by the sets' first column, `id`). */
const RELABELLERS: Readonly<Record<string, readonly string[]>> = {
  'relabel-a': ['heldout-7', 'train-blind-4'],
  'relabel-b': ['heldout-7', 'train-blind-4'],
  'relabel-c': ['train-blind-5'],
  'relabel-d': ['heldout-8'],
  'relabel-e': ['heldout-9'],
  'relabel-f': ['heldout-10'],
};

/** A set's items by `set:id` (sets in the 7-column format, which has ids). */
export function itemsById(set: string): Map<string, JudgeSetItem> {
  const items = loadJudgeSet(set);
  if (items === null) throw new OpenClawError('invalid_request', `bench/judge-set/${set}.tsv is missing`);
  return new Map(items.map((it) => [`${set}:${it.id}`, it]));
}

/** A relabeller's file: judgements by `set:id`; a malformed line is an error naming file and line. */
export function parseRelabels(text: string, name: string): Map<string, Judgement> {
  const out = new Map<string, Judgement>();
  const lines = text.split('\n');
  if (lines[0] !== 'rid\tset\tid\tlabel\thint')
    throw new OpenClawError('invalid_request', `${name}.tsv: header must be rid set id label hint`);
  lines.slice(1).forEach((raw, i) => {
    if (raw.trim() === '') return;
    const [, set, id, label, hint = ''] = raw.split('\t');
    if (label !== '1' && label !== '0' && label !== '-1')
      throw new OpenClawError('invalid_request', `${name}.tsv line ${i + 2}: label must be 1, 0 or -1, got "${label}"`);
    out.set(`${set}:${id}`, { score: Number(label) as 1 | 0 | -1, hint: hint.trim() === '' ? null : hint.trim().replace(/\\n/g, '\n') });
  });
  return out;
}

type Labels = (key: string, item: JudgeSetItem) => Judgement;

function lastSentence(text: string): string {
  const parts = text.split(/(?<=[.!?。！？])\s*|\n/).filter((p) => p.trim() !== '');
  return parts[parts.length - 1] ?? text;
}

/** A pair of labellers on the next states both read: the first is the set, the second the judge. */
interface Pair {
  name: string;
  sets: readonly string[];
  gold: Labels;
  other: Labels;
}

const setOf = (key: string) => key.slice(0, key.indexOf(':'));

function main(): void {
  const allSets = [...new Set(Object.values(RELABELLERS).flat())];
  const items = new Map<string, JudgeSetItem>();
  for (const set of allSets) for (const [k, it] of itemsById(set)) items.set(k, it);
  const relabels = new Map<string, Map<string, Judgement>>();
  for (const [r, sets] of Object.entries(RELABELLERS)) {
    const m = parseRelabels(readFileSync(join(DIR, `${r}.tsv`), 'utf8'), r);
    for (const k of items.keys())
      if (sets.includes(setOf(k)) && !m.has(k)) throw new OpenClawError('invalid_request', `${r}.tsv has no row for ${k}`);
    relabels.set(r, m);
  }
  const writer: Labels = (_k, it) => ({ score: it.score, hint: it.hint });
  const by =
    (r: string): Labels =>
    (k) =>
      relabels.get(r)!.get(k)!;
  // The writer's verdict with a hint that needs no reading: what the match gives away for free.
  const blind =
    (hint: (it: JudgeSetItem) => string): Labels =>
    (_k, it) => ({ score: it.score, hint: it.score === 0 ? null : hint(it) });
  const pairs: Pair[] = [
    ...Object.entries(RELABELLERS).map(([r, sets]) => ({ name: `writer / ${r}`, sets, gold: writer, other: by(r) })),
    { name: 'relabel-a / relabel-b', sets: RELABELLERS['relabel-a'], gold: by('relabel-a'), other: by('relabel-b') },
    { name: 'writer / whole reply', sets: allSets, gold: writer, other: blind((it) => it.text) },
    { name: 'writer / last sentence', sets: allSets, gold: writer, other: blind((it) => lastSentence(it.text)) },
  ];
  console.log(`agreement on the next states of ${allSets.join(', ')}, the first of each pair as the set`);
  for (const { name, sets, gold, other } of pairs) {
    for (const role of ['all', 'user', 'tool'] as const) {
      const results = [...items]
        .filter(([k, it]) => sets.includes(setOf(k)) && (role === 'all' || it.role === role))
        .map(([k, it]) => ({ item: { ...it, ...gold(k, it) }, got: other(k, it) }));
      const m = scoreJudgeSet(results);
      const pct = (x: number) => x.toFixed(2);
      console.log(
        `${`${name} ${role}`.padEnd(28)} n=${String(m.n).padStart(3)}  accuracy ${pct(m.accuracy)}  recall −1 ${pct(m.recall[-1])}` +
          `  hint recall ${pct(m.hintRecall)}  either extent ${pct(m.hintRecallEither)}  hint precision ${pct(m.hintPrecision)}` +
          `  either extent ${pct(m.hintPrecisionEither)}`,
      );
    }
  }
}

main();
