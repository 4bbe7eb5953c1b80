// Delta `turn` lines. A session's next request repeats everything before it (OpenClaw: a 40k
// system prompt, every tool schema, the whole conversation), so a record line that stored the
// full prompt each time made the journal grow with the square of a session's length. A turn line
// with a `base` stores only what is new since the session's previous turn line in the same
// segment: `messages` are the messages after the first `keep` entries of the base's context
// (its messages followed by its answer), `tools` are the base's when `tools` is true, and the
// prompt's token ids / text likewise continue the base's (prompt + response ids, prompt text).
// `rebuildTurn` is the one place that turns such a line back into the full turn.
import { createHash } from 'node:crypto';

/** How a delta line continues its base (the session's previous turn line in the same segment). */
export interface DeltaBase {
  turn_id: number;
  /** Leading entries kept from (base messages + base answer). */
  keep: number;
  /** The request's tools are the base's. */
  tools?: true;
  /** Leading ids kept from (base prompt ids + base response ids); `prompt_ids` holds the rest. */
  ids_keep?: number;
  /** Leading characters kept from the base's prompt text; `prompt_text` holds the rest. */
  text_keep?: number;
}

/** The members of a turn that a delta line shortens. */
export interface TurnContent {
  messages: unknown[];
  response: unknown;
  tools?: unknown;
  prompt_ids?: number[];
  response_ids?: number[];
  prompt_text?: string;
  base?: DeltaBase;
}

/**
 * The full turn of a line: the line itself when it has no base, else its members rebuilt from
 * the (already full) base turn. Null when the base does not match (a base line lost to a crash).
 */
export function rebuildTurn<T extends TurnContent>(line: T, base: TurnContent | undefined, baseTurnId?: number): T | null {
  const d = line.base;
  if (d === undefined) return line;
  if (base === undefined || baseTurnId !== d.turn_id) return null;
  const context = [...base.messages, base.response];
  if (!Number.isInteger(d.keep) || d.keep < 0 || d.keep > context.length) return null;
  const full: T = { ...line, messages: context.slice(0, d.keep).concat(line.messages ?? []) };
  delete full.base;
  if (d.tools === true) full.tools = base.tools;
  if (d.ids_keep !== undefined)
    full.prompt_ids = [...(base.prompt_ids ?? []), ...(base.response_ids ?? [])].slice(0, d.ids_keep).concat(line.prompt_ids ?? []);
  if (d.text_keep !== undefined) full.prompt_text = (base.prompt_text ?? '').slice(0, d.text_keep) + (line.prompt_text ?? '');
  return full;
}

/** A short digest of a JSON text, to compare messages without keeping their text. */
export function digest(json: string): string {
  return createHash('sha1').update(json).digest('base64');
}

/** Length of the common prefix of two sequences. */
export function commonPrefix<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Length of the common prefix of `b` and the concatenation of `a1` and `a2` (no copy). */
export function commonPrefix2<T>(a1: ArrayLike<T>, a2: ArrayLike<T>, b: ArrayLike<T>): number {
  const first = commonPrefix(a1, b);
  if (first < a1.length) return first;
  let i = 0;
  while (first + i < b.length && i < a2.length && a2[i] === b[first + i]) i++;
  return first + i;
}

/** Length of the common prefix of two strings. */
export function commonTextPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  // Compare in slices first: prompt texts run to hundreds of kilobytes.
  const step = 4096;
  while (i + step <= n && a.slice(i, i + step) === b.slice(i, i + step)) i += step;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Never split a surrogate pair: the kept part and the rest are written as separate JSON strings.
  if (i > 0 && i < n && (a.charCodeAt(i - 1) & 0xfc00) === 0xd800) i--;
  return i;
}
