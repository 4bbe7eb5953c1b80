// Reading judge answers: the final \boxed{…} score and the [HINT_START]…[HINT_END] hint.
// Judges think aloud and may mention \boxed{} while reasoning, so only the last one counts.

/** Every `\boxed{…}` with its inner text; tolerates a space before the brace. */
const BOXED = /\\boxed\s*\{([^{}]*)\}/g;
/** An integer with an optional sign (spaces allowed after it) and an optional `.0`. */
const SIGNED_INT = /^([+-]?)\s*(\d+)(?:\.0+)?$/;
const HINT = /\[\s*HINT_START\s*\]([\s\S]*?)\[\s*HINT_END\s*\]/gi;

/** The inner text of the LAST `\boxed{…}` in `text` (untrimmed), or null when there is none. */
export function lastBoxed(text: string): string | null {
  let last: string | null = null;
  for (const match of text.matchAll(BOXED)) last = match[1];
  return last;
}

/**
 * The value of the LAST `\boxed{…}` in `text` when it is one of `allowed`, else 'fail'.
 * `\boxed{ -1 }`, `\boxed{+1}` and `\boxed{1.0}` parse; a last box holding anything else fails
 * rather than falling back to an earlier box, because the last one is the judge's final word.
 */
export function parseBoxedScore<T extends number>(text: string, allowed: readonly T[]): T | 'fail' {
  const last = lastBoxed(text);
  if (last === null) return 'fail';
  const m = SIGNED_INT.exec(last.trim());
  if (m === null) return 'fail';
  const value = Number(m[2]) * (m[1] === '-' ? -1 : 1);
  // find() returns the allowed element itself, which also turns -0 into 0.
  const found = allowed.find((a) => a === value);
  return found ?? 'fail';
}

/** The last non-empty `[HINT_START] … [HINT_END]` block of `text`, trimmed; null when none. */
export function parseHint(text: string): string | null {
  let last: string | null = null;
  for (const match of text.matchAll(HINT)) {
    const hint = match[1].trim();
    if (hint !== '') last = hint;
  }
  return last;
}
