// Parsing and scoring of the judge evaluation set (bench/judge-set/*.tsv), shared by
// `npm run bench:judge` and the offline judge's tests.
//
// File format: one reply per line, tab-separated `role  score  reply  expected-hint`; `#` starts
// a comment line; `\n` in a reply is a line break; an empty hint column means "no hint".
// A hint matches when it covers at least 75% of the expected hint's words (CJK: characters) and
// at least half of its own words are expected ones. That match is strict about extent: "snake_case"
// and "our codebase is snake_case" do not match. Three writers given the same brief pick different
// extents for the same fix (bench:judge-agreement: writer against relabeller 0.61 and 0.77, the two
// relabellers 0.81 under it), so the bench also reports `hintSameFix`, which accepts either extent.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenClawError } from '../src/errors/index.ts';
import { hintMatches, hintWords } from '../src/scoring/rules-reader/hint-match.ts';

export interface JudgeSetItem {
  set: string;
  line: number;
  role: 'user' | 'tool';
  text: string;
  score: 1 | 0 | -1;
  hint: string | null;
  /** Language of the next state (`en`, `zh`, …); set-wide `en`/`zh` guesses for the old sets. */
  lang?: string;
  /** What the assistant or agent had just done (heldout-2's `context` column), when the set has it. */
  context?: string;
  /** The row's id in the 7-column format (`h7-001`), when the set has one. */
  id?: string;
}

export interface Judgement {
  score: 1 | 0 | -1;
  hint: string | null;
}

/** Parses one set file; a malformed line is an error naming the file and line. */
export function parseJudgeSet(text: string, set: string): JudgeSetItem[] {
  const items: JudgeSetItem[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '' || raw.startsWith('#')) return;
    const cols = raw.split('\t');
    const [role, score, reply, hint] = cols;
    const where = `${set}.tsv line ${i + 1}`;
    if (cols.length < 3 || cols.length > 4)
      throw new OpenClawError('invalid_request', `${where}: expected 3 or 4 tab-separated columns, got ${cols.length}`);
    if (role !== 'user' && role !== 'tool')
      throw new OpenClawError('invalid_request', `${where}: role must be user or tool, got "${role}"`);
    if (score !== '1' && score !== '0' && score !== '-1')
      throw new OpenClawError('invalid_request', `${where}: score must be 1, 0 or -1, got "${score}"`);
    if (reply.trim() === '') throw new OpenClawError('invalid_request', `${where}: empty reply`);
    const h = (hint ?? '').trim();
    items.push({
      set,
      line: i + 1,
      role,
      text: reply.replace(/\\n/g, '\n'),
      score: Number(score) as 1 | 0 | -1,
      hint: h === '' ? null : h,
    });
  });
  return items;
}

const HELDOUT2_HEADER = ['id', 'kind', 'lang', 'context', 'next_state', 'label', 'hint'];

/**
 * Parses a set in the held-out-2 format: a header line `id kind lang context next_state label hint`,
 * tab-separated, no quoting, `\n` in a field is a line break. Only the fields are read here; the
 * bench prints aggregates of this set, never its items.
 */
export function parseJudgeSet2(text: string, set: string): JudgeSetItem[] {
  const lines = text.split('\n');
  const header = lines[0].replace(/\r$/, '').split('\t');
  if (header.join('\t') !== HELDOUT2_HEADER.join('\t'))
    throw new OpenClawError('invalid_request', `${set}.tsv: header must be ${HELDOUT2_HEADER.join(' ')}`);
  const items: JudgeSetItem[] = [];
  lines.slice(1).forEach((raw, i) => {
    if (raw.trim() === '') return;
    const cols = raw.replace(/\r$/, '').split('\t');
    const where = `${set}.tsv line ${i + 2}`;
    if (cols.length !== 7) throw new OpenClawError('invalid_request', `${where}: expected 7 tab-separated columns, got ${cols.length}`);
    const [id, kind, lang, context, next, label, hint] = cols;
    if (kind !== 'user' && kind !== 'tool') throw new OpenClawError('invalid_request', `${where}: kind must be user or tool`);
    if (label !== '1' && label !== '0' && label !== '-1') throw new OpenClawError('invalid_request', `${where}: label must be 1, 0 or -1`);
    const decode = (f: string) => f.replace(/\\n/g, '\n');
    items.push({
      set,
      line: i + 2,
      role: kind,
      text: decode(next),
      score: Number(label) as 1 | 0 | -1,
      hint: hint.trim() === '' ? null : decode(hint.trim()),
      lang,
      context: decode(context),
      id,
    });
  });
  return items;
}

// The hint match is the offline judge's own (hint-extent.ts compares by it): one definition.
export { hintMatches, hintWords } from '../src/scoring/rules-reader/hint-match.ts';

/** Longest the longer of two hints may be and still name the same fix: 2 × the shorter + 4 words. */
const SAME_FIX_SCALE = 2;
const SAME_FIX_SLACK = 4;

/**
 * Whether two hints name the same fix at either extent: they match (`hintMatches`), or ≥ 75% of
 * the shorter one's words are in the longer one and the longer one has at most 2 × the shorter's
 * words + 4 ("snake_case" and "our codebase is snake_case", "use pathlib" and "use pathlib instead of
 * os.path"). The bound keeps a whole reply from matching the fix inside it; it was chosen on
 * the relabelled sets before any judge was scored with it (docs/judge.md, round 6).
 */
export function hintSameFix(expected: string, got: string): boolean {
  if (hintMatches(expected, got)) return true;
  const [a, b] = [hintWords(expected), hintWords(got)];
  if (a.length === 0 || b.length === 0) return false;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  const inLonger = new Set(longer);
  const covered = shorter.filter((w) => inLonger.has(w)).length / shorter.length;
  return covered >= 0.75 && longer.length <= SAME_FIX_SCALE * shorter.length + SAME_FIX_SLACK;
}

export interface JudgeSetMetrics {
  n: number;
  accuracy: number;
  recall: Record<-1 | 0 | 1, number>;
  /** Replies with an expected hint whose judged hint matches it. */
  hintRecall: number;
  /** Judged hints that match an expected hint. */
  hintPrecision: number;
  /** Hint recall and precision with `hintSameFix` (either extent of the same fix). */
  hintRecallEither: number;
  hintPrecisionEither: number;
  /** Replies without an expected hint and with score ≥ 0 that got a hint anyway. */
  falseHints: number;
  noHintNonNegative: number;
  falseHintRate: number;
  /** Sign flips: a −1 read as +1 or a +1 read as −1 (pushes the policy toward the failure), and their share of all items. */
  signFlips: number;
  signFlipRate: number;
  /** Of the ±1 items, the share given a non-zero verdict (a 0 trains nothing: safe, but no signal). */
  coverage: number;
}

/** Accuracy, per-class recall and hint quality over judged items. */
export function scoreJudgeSet(results: Array<{ item: JudgeSetItem; got: Judgement }>): JudgeSetMetrics {
  const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
  const recall = (c: -1 | 0 | 1) => {
    const of = results.filter((r) => r.item.score === c);
    return ratio(of.filter((r) => r.got.score === c).length, of.length);
  };
  const withHint = results.filter((r) => r.item.hint !== null);
  const given = results.filter((r) => r.got.hint !== null);
  const matched = (r: { item: JudgeSetItem; got: Judgement }) =>
    r.item.hint !== null && r.got.hint !== null && hintMatches(r.item.hint, r.got.hint);
  const sameFix = (r: { item: JudgeSetItem; got: Judgement }) =>
    r.item.hint !== null && r.got.hint !== null && hintSameFix(r.item.hint, r.got.hint);
  const clean = results.filter((r) => r.item.hint === null && r.item.score >= 0);
  const falseHints = clean.filter((r) => r.got.hint !== null).length;
  const signed = results.filter((r) => r.item.score !== 0);
  const flips = signed.filter((r) => r.got.score === -r.item.score).length;
  return {
    n: results.length,
    accuracy: ratio(results.filter((r) => r.got.score === r.item.score).length, results.length),
    recall: { [-1]: recall(-1), 0: recall(0), 1: recall(1) } as Record<-1 | 0 | 1, number>,
    hintRecall: ratio(withHint.filter(matched).length, withHint.length),
    hintPrecision: ratio(given.filter(matched).length, given.length),
    hintRecallEither: ratio(withHint.filter(sameFix).length, withHint.length),
    hintPrecisionEither: ratio(given.filter(sameFix).length, given.length),
    falseHints,
    noHintNonNegative: clean.length,
    falseHintRate: ratio(falseHints, clean.length),
    signFlips: flips,
    signFlipRate: ratio(flips, results.length),
    coverage: ratio(signed.filter((r) => r.got.score !== 0).length, signed.length),
  };
}

/** The sets' format: the 7-column one starts with its header line. */
export function parseAnySet(text: string, set: string): JudgeSetItem[] {
  return text.startsWith(`${HELDOUT2_HEADER.join('\t')}`) ? parseJudgeSet2(text, set) : parseJudgeSet(text, set);
}

/** Reads bench/judge-set/NAME.tsv in either format, or null when the file is not there. */
export function loadJudgeSet(name: string): JudgeSetItem[] | null {
  const path = join(import.meta.dirname, 'judge-set', `${name}.tsv`);
  if (!existsSync(path)) return null;
  return parseAnySet(readFileSync(path, 'utf8'), name);
}

/**
 * The labelled development sets, by author group: a set and the sets written by the same hands
 * are one group, so that leave-one-group-out scores a group no part of the training saw.
 * Sealed sets (bench/judge.ts SEALED_SETS) are not here and no script reads them.
 */
export const DEVELOPMENT_SETS: Readonly<Record<string, readonly string[]>> = {
  authors: ['dev', 'heldout'],
  'heldout-2': ['heldout-2'],
  'heldout-3': ['heldout-3'],
  'train-blind': ['train-blind'],
  // Sealed for the judge of stop 29 and measured once then; development data since.
  'heldout-4': ['heldout-4'],
  // Written blind for training, hint-heavy (stop 30); skipped while the file is absent.
  'train-blind-2': ['train-blind-2'],
  // Sealed for the round-3 judge and measured once then (2026-12-03, docs/judge.md); development data since.
  'heldout-5': ['heldout-5'],
  // Sealed for the round-4 judge and measured once then (2026-12-03, docs/judge.md); development data since.
  'heldout-6': ['heldout-6'],
  // Written blind for training from the same brief as heldout-7 (stop 33).
  'train-blind-3': ['train-blind-3'],
  // Written blind from the same brief at the end of round 5 (stop 33); scored once before any use.
  'train-blind-4': ['train-blind-4'],
  // Sealed for the round-5 judge and measured once then (2026-12-03, docs/judge.md); development data since.
  'heldout-7': ['heldout-7'],
  // Written blind from the same brief in round 6 (stop 34); scored once before any use (at c7d6ab4, docs/judge.md).
  'train-blind-5': ['train-blind-5'],
  // Sealed for the round-6 judge and measured once then (1dd3944, 2026-12-03, docs/judge.md); development data since.
  'heldout-8': ['heldout-8'],
  // Sealed for the round-7 judge and measured once then (d801a9f, 2026-12-03, docs/judge.md); development data since.
  'heldout-9': ['heldout-9'],
  // Sealed for the round-8 judge and measured once then (cf82ddd, 2026-12-03, docs/judge.md); development data since.
  'heldout-10': ['heldout-10'],
  // Personal-assistant traffic (assistant-brief.md: messaging apps, 13 languages, a quarter assistant
  // tool outputs), written blind for development; skipped while a file is absent.
  'pa-dev-2': ['pa-dev-2'],
  'pa-dev-1': ['pa-dev-1'],
  'pa-dev-3': ['pa-dev-3'],
  'pa-dev-4': ['pa-dev-4'],
  // Sealed for the issue-36 round-1 (98dd53a) and round-2 (09cca38) judges, scored once each; development data since.
  'pa-heldout-1': ['pa-heldout-1'],
  'pa-heldout-2': ['pa-heldout-2'],
  // Sealed for the issue-36 round-3 judge (f782ff6), scored once; development data since.
  'pa-heldout-3': ['pa-heldout-3'],
  // Sealed for the issue-36 round-4 judge (8dec993), scored once; development data since.
  'pa-heldout-4': ['pa-heldout-4'],
  // Sealed for the issue-36 round-5 judge (105be3c), scored once; development data since.
  'pa-heldout-5': ['pa-heldout-5'],
  // Sealed for the issue-36 round-6 judge (250806d), scored once; development data since.
  'pa-heldout-6': ['pa-heldout-6'],
  // Sealed for the issue-36 round-7 judge (c4890e3), scored once; development data since.
  'pa-heldout-7': ['pa-heldout-7'],
  // Sealed for the issue-36 round-8 judge (489dc38), scored once; development data since.
  'pa-heldout-8': ['pa-heldout-8'],
  // Sealed for the issue-36 round-9 judge (93c9b7b), scored once; development data since.
  'pa-heldout-9': ['pa-heldout-9'],
  // Sealed for the round-9 judge with the 13-language classifier (e0c3728), scored once; development data since.
  'pa-heldout-10': ['pa-heldout-10'],
  // Sealed for the round-10 judge (cea467a), scored once; development data since.
  'pa-heldout-11': ['pa-heldout-11'],
  // Sealed for the round-10 judge too (27a9c2c), scored once; development data since.
  'pa-heldout-12': ['pa-heldout-12'],
  // Sealed for the round-11 judge (f11c685), scored once; development data since.
  'pa-heldout-13': ['pa-heldout-13'],
  // Sealed for the round-11 judge with the retrained classifier (38d14da), scored once; development data since.
  'pa-heldout-14': ['pa-heldout-14'],
};
