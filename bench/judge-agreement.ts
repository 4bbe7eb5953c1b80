// `npm run bench:judge-agreement`: how much people given the same labelling brief agree with each
// other — the ceiling a judge can be held to. Two relabellers (bench/judge-set/relabel-a.tsv and
// relabel-b.tsv, columns `rid set id label hint`) labelled the next states of heldout-7 and
// train-blind-4 again from bench/judge-set/relabel-brief.md, without the writers' labels and
// without reading this project. Each pair (writer against a relabeller, relabeller against
// relabeller) is scored as if one were the set and the other a judge, with the bench's own
// metrics. Baselines that need no understanding (the whole next state as the hint, its last
// sentence) show what the hint matches give away for free.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenClawError } from '../src/errors/index.ts';
import { loadJudgeSet, scoreJudgeSet, type Judgement, type JudgeSetItem } from './judge-metrics.ts';

const DIR = join(import.meta.dirname, 'judge-set');
/** The sets the relabellers read, by the first column of their rows (`id`). */
const RELABELLED_SETS = ['heldout-7', 'train-blind-4'] as const;
const RELABELLERS = ['relabel-a', 'relabel-b'] as const;

/** A set's items by `set:id` (the 7-column format's id is the first column of its line). */
export function itemsById(set: string): Map<string, JudgeSetItem> {
  const items = loadJudgeSet(set);
  if (items === null) throw new OpenClawError('invalid_request', `bench/judge-set/${set}.tsv is missing`);
  const lines = readFileSync(join(DIR, `${set}.tsv`), 'utf8').split('\n');
  return new Map(items.map((it) => [`${set}:${lines[it.line - 1].split('\t')[0]}`, it]));
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

function main(): void {
  const items = new Map<string, JudgeSetItem>();
  for (const set of RELABELLED_SETS) for (const [k, it] of itemsById(set)) items.set(k, it);
  const relabels = Object.fromEntries(RELABELLERS.map((r) => [r, parseRelabels(readFileSync(join(DIR, `${r}.tsv`), 'utf8'), r)])) as Record<
    (typeof RELABELLERS)[number],
    Map<string, Judgement>
  >;
  for (const [r, m] of Object.entries(relabels))
    for (const k of items.keys()) if (!m.has(k)) throw new OpenClawError('invalid_request', `${r}.tsv has no row for ${k}`);
  const writer: Labels = (_k, it) => ({ score: it.score, hint: it.hint });
  const by =
    (r: (typeof RELABELLERS)[number]): Labels =>
    (k) =>
      relabels[r].get(k)!;
  const pairs: Array<[string, Labels, Labels]> = [
    ['writer / relabel-a', writer, by('relabel-a')],
    ['writer / relabel-b', writer, by('relabel-b')],
    ['relabel-a / relabel-b', by('relabel-a'), by('relabel-b')],
    // The writer's verdict with a hint that needs no reading: what the match gives away for free.
    ['writer / whole reply', writer, (_k, it) => ({ score: it.score, hint: it.score === 0 ? null : it.text })],
    ['writer / last sentence', writer, (_k, it) => ({ score: it.score, hint: it.score === 0 ? null : lastSentence(it.text) })],
  ];
  console.log(`agreement on ${items.size} next states (${RELABELLED_SETS.join(', ')}), the first of each pair as the set`);
  for (const [name, gold, other] of pairs) {
    for (const role of ['all', 'user', 'tool'] as const) {
      const results = [...items]
        .filter(([, it]) => role === 'all' || it.role === role)
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
