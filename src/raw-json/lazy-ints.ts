// Large integer arrays inside JSON, kept as their text until someone needs the numbers.
// An engine asked for token ids sends the whole prompt's ids with each answer (vLLM
// `return_token_ids`): 16k numbers for an OpenClaw prompt, ~100 KB of JSON that JSON.parse turns
// into an array at ~25 ns a number, on the request's path. `parseWithLazyInts` leaves one such
// top-level array as text (a `LazyInts`), so the gateway can answer first and parse later, and the
// records file can write the text as it came instead of formatting the numbers again.

/** A JSON array of integers held as text; parsed (and checked) on first use. */
export class LazyInts {
  /** The array's JSON text, exactly as received (one line: `parseWithLazyInts` refuses line breaks). */
  readonly json: string;
  private parsed?: number[];

  constructor(json: string) {
    this.json = json;
  }

  /** The numbers; throws when the text is not a JSON array of integers. */
  values(): number[] {
    if (this.parsed !== undefined) return this.parsed;
    let v: unknown;
    try {
      v = JSON.parse(this.json);
    } catch (err) {
      throw new Error(`not a JSON array: ${(err as Error).message}`);
    }
    if (!Array.isArray(v)) throw new Error('not a JSON array');
    for (let i = 0; i < v.length; i++) {
      if (!Number.isInteger(v[i])) throw new Error(`element ${i} is ${JSON.stringify(v[i])}, not an integer`);
    }
    this.parsed = v as number[];
    return this.parsed;
  }

  /** JSON.stringify of an object holding this writes the array (as received, if not all integers). */
  toJSON(): unknown {
    try {
      return this.values();
    } catch {
      return JSON.parse(this.json) as unknown;
    }
  }
}

/** Below this many characters a document is parsed whole: the text would save nothing. */
const MIN_CHARS = 4096;

/**
 * JSON.parse, except that a top-level `key` holding an array becomes a `LazyInts` over that
 * array's text. Any doubt (the key nested, strings or nested arrays in the value, line breaks in
 * it) falls back to parsing the whole text, so the result reads as what JSON.parse would give.
 * Throws what JSON.parse throws on invalid JSON outside the array; damage inside it surfaces when
 * `values()` is called (the gateway then records the turn as untrainable, with the reason).
 */
export function parseWithLazyInts(text: string, key: string): Record<string, unknown> {
  const at = text.length >= MIN_CHARS ? text.indexOf(`"${key}"`) : -1;
  const start = at < 0 ? -1 : arrayStart(text, at + key.length + 2);
  const end = start < 0 ? -1 : text.indexOf(']', start) + 1;
  if (end <= 0) return JSON.parse(text);
  const arrayText = text.slice(start, end);
  // Strings or nested arrays may hide a ']'; a line break would split a JSONL record.
  if (arrayText.includes('"') || arrayText.includes('[', 1) || arrayText.includes('\n') || arrayText.includes('\r'))
    return JSON.parse(text);
  let rest: unknown;
  try {
    // The array replaced by 0: if the key was where we think, the rest parses with key = 0.
    rest = JSON.parse(`${text.slice(0, start)}0${text.slice(end)}`);
  } catch {
    return JSON.parse(text);
  }
  if (rest === null || typeof rest !== 'object' || Array.isArray(rest) || (rest as Record<string, unknown>)[key] !== 0)
    return JSON.parse(text);
  (rest as Record<string, unknown>)[key] = new LazyInts(arrayText);
  return rest as Record<string, unknown>;
}

/** Index of the '[' after `from` when only `:` and whitespace come between, else -1. */
function arrayStart(text: string, from: number): number {
  let i = skipSpace(text, from);
  if (text[i] !== ':') return -1;
  i = skipSpace(text, i + 1);
  return text[i] === '[' ? i : -1;
}

function skipSpace(text: string, i: number): number {
  while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++;
  return i;
}
