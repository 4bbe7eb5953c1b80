// Is an answer garbled? A concrete, cheap test for the drift probes (docs/evaluation.md "Probes"):
// a policy that training broke tends to emit (1) replacement characters (token ids that decode to
// no valid UTF-8: byte-level pieces in the wrong order), (2) a loop — one short phrase, word or
// character run repeated over most of the answer — or (3) control and other non-printable
// characters. Any one of these makes an answer garbled; an empty answer is counted apart.

/** Why an answer counts as garbled. */
export type GarbledReason = 'replacement_chars' | 'repetition_loop' | 'non_printable';

/** Thresholds of the test; exported so tests and docs name the same numbers. */
export const GARBLED = {
  /** U+FFFD characters: at least this many, or this share of all characters. */
  replacementCount: 3,
  replacementShare: 0.05,
  /** A loop: one n-gram (n ≤ maxN) repeated back to back over at least this share of the answer. */
  loopShare: 0.6,
  maxWordN: 16,
  maxCharN: 24,
  /** Answers shorter than this (words / characters) are too short to call a loop. */
  minLoopWords: 8,
  minLoopChars: 24,
  /** Non-printable characters (controls other than tab/newline/CR, unassigned, private use): this share. */
  nonPrintableShare: 0.3,
} as const;

const NON_PRINTABLE = /[\p{Cc}\p{Cn}\p{Co}]/u;
const LAYOUT = new Set(['\n', '\r', '\t']);

/**
 * The longest stretch of `seq` that one n-gram repeats back to back (at least twice), as a share of
 * `seq`: position j continues a period-n run when seq[j] = seq[j − n].
 */
export function loopShare<T>(seq: readonly T[], maxN: number): number {
  let best = 0;
  for (let n = 1; n <= maxN && 2 * n <= seq.length; n++) {
    let run = 0;
    for (let j = n; j < seq.length; j++) {
      run = seq[j] === seq[j - n] ? run + 1 : 0;
      // A run of r matches at period n covers r + n items; it is a repeat once r ≥ n.
      if (run >= n) best = Math.max(best, run + n);
    }
  }
  return seq.length === 0 ? 0 : best / seq.length;
}

/** Why `text` is garbled, or null when it reads as text (an empty answer is not garbled: see probe_empty_rate). */
export function garbledReason(text: string): GarbledReason | null {
  const chars = Array.from(text);
  if (chars.length === 0) return null;
  const replacement = chars.filter((c) => c === '\uFFFD').length;
  if (replacement >= GARBLED.replacementCount || replacement / chars.length >= GARBLED.replacementShare) return 'replacement_chars';
  const nonPrintable = chars.filter((c) => !LAYOUT.has(c) && NON_PRINTABLE.test(c)).length;
  if (nonPrintable / chars.length >= GARBLED.nonPrintableShare) return 'non_printable';
  const words = text.split(/\s+/).filter((w) => w !== '');
  if (words.length >= GARBLED.minLoopWords && loopShare(words, GARBLED.maxWordN) >= GARBLED.loopShare) return 'repetition_loop';
  // Loops without spaces ("hahahaha…", "!!!!!…", a CJK phrase over and over) show in characters.
  const dense = chars.filter((c) => !/\s/.test(c));
  if (dense.length >= GARBLED.minLoopChars && loopShare(dense, GARBLED.maxCharN) >= GARBLED.loopShare) return 'repetition_loop';
  return null;
}
