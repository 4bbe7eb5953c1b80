// When two hints say the same thing: the match the bench scores hints with and the judge's own
// hint-extent rules compare by. Words are lower-case Latin words and numbers, single CJK
// characters and kana; a hint matches when it covers ≥ 75% of the expected words and ≥ 50% of
// its own words are expected ones.

/** Words for counting and matching: Latin words and numbers, single CJK characters and kana. */
function words(text: string): string[] {
  // A CJK character is a word of its own, also right after a digit ("7日より" is 7, 日, よ, り).
  // Quotes around a word are not part of it: 'email' is email ("it's" keeps its apostrophe).
  const found = text.toLowerCase().match(/[\u3040-\u30ff\u3400-\u9fff]|(?:(?![\u3040-\u30ff\u3400-\u9fff])[\p{L}\p{N}_'/-])+/gu) ?? [];
  return found.map((w) => w.replace(/^'+|'+$/g, '')).filter((w) => w !== '');
}

/**
 * Words for hint matching: lower-case Latin words and numbers, single CJK characters and kana.
 * The bench's hint match (bench/judge-metrics.ts) is this one.
 */
export function hintWords(text: string): string[] {
  return words(text);
}

/**
 * Whether `got` says what `expected` says: it covers ≥ 75% of the expected words and ≥ 50% of
 * its own words are expected ones.
 */
export function hintMatches(expected: string, got: string): boolean {
  return wordsMatch(words(expected), words(got));
}

function wordsMatch(want: string[], have: string[]): boolean {
  if (want.length === 0 || have.length === 0) return false;
  const wantSet = new Set(want);
  const haveSet = new Set(have);
  const covered = want.filter((w) => haveSet.has(w)).length / want.length;
  const own = have.filter((w) => wantSet.has(w)).length / have.length;
  return covered >= 0.75 && own >= 0.5;
}
