// The five style dimensions of the pretraining corpus and a detector for each, applied to an
// assistant answer's text. The detectors are pure and cheap: the corpus generator's tests use
// them to check its labels, the pretraining script to measure the model's base rates, and the
// simulated users (src/sim) to rate answers.
//
//   markdown   bold (**x**), a list item line (1. / - / * / •) or a heading (#)
//   terse      the body (the answer without a trailing sign-off line) has at most 25 words
//   casual     at least two casual markers in the body: slang words (hey, yeah, gonna, …),
//              contractions (it's, don't, …) and exclamation marks each count once per hit
//   lowercase  the answer has letters and none of them is upper case
//   signoff    the last non-empty line is short (≤ 8 words) and carries an emoji

/** One style dimension. */
export type StyleName = 'markdown' | 'terse' | 'casual' | 'lowercase' | 'signoff';

/** All style dimensions, in report order. */
export const STYLE_NAMES: readonly StyleName[] = ['markdown', 'terse', 'casual', 'lowercase', 'signoff'];

/** Which styles an answer shows. */
export type Styles = Record<StyleName, boolean>;

/**
 * The corpus minority value of each dimension: plain prose is the minority for `markdown`
 * (markdown = true is the AI-looking majority); for the others the minority is `true`.
 */
export const MINORITY: Readonly<Styles> = { markdown: false, terse: true, casual: true, lowercase: true, signoff: true };

const BOLD = /\*\*[^*\n]+\*\*/;
const LIST_ITEM = /^\s*(?:\d+[.)]|[-*•])\s+\S/m;
const HEADING = /^#{1,6}\s+\S/m;
const SLANG = /\b(?:hey|yeah|yep|oh|ooh|gonna|wanna|kinda|super|totally|awesome|btw|tbh|lol)\b/gi;
const CONTRACTION = /\b[a-z]+['’](?:s|re|ll|ve|m|d|t)\b/gi;
const EXCLAMATION = /!/g;
const EMOJI = /\p{Extended_Pictographic}/u;
const TERSE_MAX_WORDS = 25;
const SIGNOFF_MAX_WORDS = 8;

function count(text: string, pattern: RegExp): number {
  return (text.match(pattern) ?? []).length;
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** Splits an answer into its body and its sign-off line (null when the last line is none). */
export function splitSignoff(answer: string): { body: string; signoff: string | null } {
  const lines = answer.trimEnd().split('\n');
  const last = lines[lines.length - 1]?.trim() ?? '';
  if (last === '' || !EMOJI.test(last) || wordCount(last) > SIGNOFF_MAX_WORDS) return { body: answer.trim(), signoff: null };
  return { body: lines.slice(0, -1).join('\n').trim(), signoff: last };
}

/** Number of casual markers (slang words, contractions, exclamation marks) in a text. */
export function casualMarkers(text: string): number {
  return count(text, SLANG) + count(text, CONTRACTION) + count(text, EXCLAMATION);
}

/** Detects the five styles of one assistant answer. */
export function detectStyles(answer: string): Styles {
  const { body, signoff } = splitSignoff(answer);
  const letters = answer.match(/\p{L}/gu) ?? [];
  return {
    markdown: BOLD.test(answer) || LIST_ITEM.test(answer) || HEADING.test(answer),
    terse: wordCount(body) <= TERSE_MAX_WORDS,
    casual: casualMarkers(body) >= 2,
    lowercase: letters.length > 0 && !/\p{Lu}/u.test(answer),
    signoff: signoff !== null,
  };
}

/** Whether an answer shows the minority value of `style` (what a persona of that style wants). */
export function hasMinorityStyle(styles: Styles, style: StyleName): boolean {
  return styles[style] === MINORITY[style];
}
