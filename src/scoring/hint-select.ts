// Choosing one hint among the hint judge's m candidates (`scoring.hint_selection`).
//
// Eligible candidates: votes that said +1 and carry a hint longer than `minHintChars`
// (default 10, measured by `hintLength` after trimming: code points, with a CJK character
// counting 3, so "改成小写" (4 characters, a whole instruction) is as long as "use lowercase").
//
// `longest` (the reference's rule): the longest eligible hint; ties go to the earliest vote.
//
// `overlap` (from the later OpenClaw-RL paper): the eligible hint under which the teacher agrees
// most with what the student already considers likely, which keeps distillation stable when
// teacher and student disagree. With S_t the set of the student's top-k token ids at response
// position t, and (id_i, logp_i) the teacher's top-k at t under the prompt with hint h:
//   metric 'mass'  (default): O(h) = mean_t  Σ_{i : id_i ∈ S_t} exp(logp_i)
//                  — the teacher probability mass that falls on the student's top-k, in [0, 1];
//   metric 'count':           O(h) = mean_t  |S_t ∩ {id_i}| / |S_t|
//                  — the reference's top-k set intersection size, normalised to [0, 1].
// The highest O(h) wins; ties go to the longer hint, then the earlier vote. When any eligible
// candidate lacks top-k data (or its teacher and student lengths differ), `overlap` falls back to
// `longest` and says why in `fallback`. With a single eligible candidate no data is needed.

import type { TopK } from '../engines/types.ts';
import type { CandidateTopK, HintCandidate, HintSelection, HintStrategy, OverlapMetric } from './types.ts';

/** Options of `selectHint`. */
export interface HintSelectOptions {
  strategy: HintStrategy;
  /** A hint must be longer than this many characters to be eligible (default 10). */
  minHintChars?: number;
  /** Overlap measure of the `overlap` strategy (default 'mass'). */
  overlapMetric?: OverlapMetric;
}

/** Picks the hint to distil from, by the configured strategy; see the header for the rules. */
export function selectHint(candidates: readonly HintCandidate[], opts: HintSelectOptions): HintSelection {
  const minChars = opts.minHintChars ?? 10;
  const eligible = eligibleIndices(candidates, minChars);
  const base = { strategy: opts.strategy, eligible: eligible.length, overlapScores: null };
  const longest = (fallback: string | null): HintSelection => {
    const index = pickLongest(candidates, eligible);
    return { ...base, hint: index === null ? null : hintOf(candidates[index]), index, used: 'longest', fallback };
  };
  if (opts.strategy === 'longest') return longest(null);
  if (eligible.length <= 1) {
    const index = eligible.length === 1 ? eligible[0] : null;
    return { ...base, hint: index === null ? null : hintOf(candidates[index]), index, used: 'overlap', fallback: null };
  }
  const missing = eligible.filter((i) => !hasUsableTopK(candidates[i].topK));
  if (missing.length > 0) {
    return longest(
      `overlap needs teacher and student top-k of equal length for every eligible candidate; missing for candidate(s) ${missing.join(', ')}`,
    );
  }
  const metric = opts.overlapMetric ?? 'mass';
  const scores: Array<number | null> = candidates.map(() => null);
  let best: number | null = null;
  for (const i of eligible) {
    const score = overlapScore(candidates[i].topK as CandidateTopK, metric);
    scores[i] = score;
    if (best === null || isBetter(score, i, scores[best] as number, best, candidates)) best = i;
  }
  return {
    ...base,
    hint: best === null ? null : hintOf(candidates[best]),
    index: best,
    used: 'overlap',
    fallback: null,
    overlapScores: scores,
  };
}

/** O(h) of one candidate as defined in the header (metric 'mass' or 'count'). */
export function overlapScore(topK: CandidateTopK, metric: OverlapMetric = 'mass'): number {
  const positions = topK.student.length;
  if (positions === 0 || topK.teacher.length !== positions) return 0;
  let total = 0;
  for (let t = 0; t < positions; t++) total += positionOverlap(topK.teacher[t], topK.student[t], metric);
  return total / positions;
}

function positionOverlap(teacher: TopK, student: TopK, metric: OverlapMetric): number {
  const studentSet = new Set<number>(Array.from(student.ids));
  if (studentSet.size === 0) return 0;
  let mass = 0;
  let shared = 0;
  for (let i = 0; i < teacher.ids.length; i++) {
    if (!studentSet.has(teacher.ids[i])) continue;
    shared++;
    mass += Math.exp(teacher.logprobs[i]);
  }
  return metric === 'mass' ? mass : shared / studentSet.size;
}

function isBetter(score: number, index: number, bestScore: number, bestIndex: number, candidates: readonly HintCandidate[]): boolean {
  if (score !== bestScore) return score > bestScore;
  return hintLength(hintOf(candidates[index])) > hintLength(hintOf(candidates[bestIndex]));
}

function hasUsableTopK(topK: CandidateTopK | null | undefined): boolean {
  return topK !== undefined && topK !== null && topK.student.length > 0 && topK.teacher.length === topK.student.length;
}

/** Indices of the candidates that qualify: score +1 and a trimmed hint longer than `minChars` code points. */
export function eligibleIndices(candidates: readonly HintCandidate[], minChars: number): number[] {
  const out: number[] = [];
  candidates.forEach((c, i) => {
    if (c.score === 1 && c.hint !== null && longEnoughHint(c.hint, minChars)) out.push(i);
  });
  return out;
}

function pickLongest(candidates: readonly HintCandidate[], eligible: number[]): number | null {
  let best: number | null = null;
  for (const i of eligible) {
    if (best === null || hintLength(hintOf(candidates[i])) > hintLength(hintOf(candidates[best]))) best = i;
  }
  return best;
}

function hintOf(candidate: HintCandidate): string {
  return (candidate.hint ?? '').trim();
}

const WIDE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * A hint's length as `scoring.min_hint_chars` measures it: code points (so an emoji is 1, not 2
 * UTF-16 units), with a CJK character counting 3 — one carries about as much as a short English
 * word, and a 4-character Chinese instruction must not fall under a limit set for English.
 */
export function hintLength(text: string): number {
  let n = 0;
  for (const ch of text) n += WIDE_SCRIPT.test(ch) ? 3 : 1;
  return n;
}

/** Whether `text` (trimmed) is longer than `minChars` by `hintLength`: the one test of `scoring.min_hint_chars`. */
export function longEnoughHint(text: string, minChars: number): boolean {
  return hintLength(text.trim()) > minChars;
}
