// JSON values that carry their own text. OpenClaw sends a 40k-character system prompt and a dozen
// tool schemas with every request, and each JSON.stringify of them costs ~100 µs here. A request's
// `messages` and `tools` are therefore kept as `RawJson`: the parsed value together with the exact
// text it was parsed from. The upstream request (a `JsonObjectParts`) splices that text in instead
// of formatting the values again, and the turn's record line reuses the tools' text. The types say
// where such text flows: a plain object never carries a hidden one.

/** A type whose members, all the way down, cannot be assigned through it. */
type DeepReadonly<T> =
  T extends ReadonlyArray<infer E>
    ? ReadonlyArray<DeepReadonly<E>>
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/** A JSON value and the one-line text it was parsed from. */
export class RawJson<T = unknown> {
  private constructor(
    /** The value, read-only: changed, it would no longer be what the text spells. */
    readonly value: DeepReadonly<T>,
    /** Valid JSON without line breaks (so it fits in a JSONL record), meaning `value`. */
    readonly text: string,
  ) {}

  /**
   * `value` with `text`, the JSON text it was parsed from (the caller vouches for that). Undefined
   * when the text has line breaks (a pretty-printed body): it would split a record line.
   */
  static parsed<T>(value: T, text: string): RawJson<T> | undefined {
    return text.includes('\n') || text.includes('\r') ? undefined : new RawJson(value as DeepReadonly<T>, text);
  }
}

/**
 * A JSON object to send: plain members, and members that carry their text (`raw`, spliced in as
 * is; `plain` holds none of their keys). The raw members come last in the text; no JSON reader
 * minds the order.
 */
export class JsonObjectParts {
  constructor(
    readonly plain: Record<string, unknown>,
    readonly raw: ReadonlyMap<string, RawJson> = new Map(),
  ) {}

  /** The object's JSON text. */
  text(): string {
    const head = JSON.stringify(this.plain);
    if (this.raw.size === 0) return head;
    let tail = '';
    for (const [key, member] of this.raw) tail += `,${JSON.stringify(key)}:${member.text}`;
    return head === '{}' ? `{${tail.slice(1)}}` : `${head.slice(0, -1)}${tail}}`;
  }

  /** The object as plain values (for a reader in this process). */
  value(): Record<string, unknown> {
    const out = { ...this.plain };
    for (const [key, member] of this.raw) out[key] = member.value;
    return out;
  }

  /** A copy with `members` set (a raw member of the same name is replaced). */
  with(members: Record<string, unknown>): JsonObjectParts {
    const raw = new Map([...this.raw].filter(([key]) => !Object.hasOwn(members, key)));
    return new JsonObjectParts({ ...this.plain, ...members }, raw);
  }
}

/** A JSON object, plain or in parts (what a chat channel is given to send). */
export type JsonObject = Record<string, unknown> | JsonObjectParts;

/** The JSON text of a plain or parted object. */
export function jsonObjectText(obj: JsonObject): string {
  return obj instanceof JsonObjectParts ? obj.text() : JSON.stringify(obj);
}

/** A plain or parted object as plain values. */
export function jsonObjectValue(obj: JsonObject): Record<string, unknown> {
  return obj instanceof JsonObjectParts ? obj.value() : obj;
}

/** A copy of a plain or parted object with `members` set. */
export function withMembers<T extends JsonObject>(obj: T, members: Record<string, unknown>): T {
  return (obj instanceof JsonObjectParts ? obj.with(members) : { ...obj, ...members }) as T;
}

/**
 * The members `keys` of `obj` that are objects or arrays, each with the text `text` (what `obj`
 * was parsed from, before anything changed it) spells it with. Empty when the text cannot be read
 * with certainty or a member is pretty-printed.
 */
export function rawMembers(obj: Record<string, unknown>, text: string, keys: ReadonlySet<string>): Map<string, RawJson> {
  const out = new Map<string, RawJson>();
  for (const [key, member] of topLevelMembers(text, keys) ?? []) {
    const v = obj[key];
    const raw = typeof v === 'object' && v !== null ? RawJson.parsed(v, member) : undefined;
    if (raw !== undefined) out.set(key, raw);
  }
  return out;
}

/**
 * The text of the members `wanted` of a JSON object's text, by key: what JSON.parse made each
 * member's value from (the last of duplicate keys, as JSON.parse keeps). Undefined for anything
 * it is not sure of (not an object, a key written with escapes); the text must be valid JSON.
 */
export function topLevelMembers(text: string, wanted: ReadonlySet<string>): Map<string, string> | undefined {
  const out = new Map<string, string>();
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) return undefined;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return out;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = stringEnd(text, i);
    const key = text.slice(i + 1, keyEnd - 1);
    if (key.includes('\\')) return undefined;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return undefined;
    const start = skipSpace(text, i + 1);
    const end = valueEnd(text, start);
    if (wanted.has(key)) out.set(key, text.slice(start, end));
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === CLOSE_BRACE) return out;
    if (c !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
  }
}

const [QUOTE, BACKSLASH, COMMA, COLON, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET] = [34, 92, 44, 58, 123, 125, 91, 93];

function skipSpace(text: string, i: number): number {
  for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++i));
  return i;
}

/** Past the closing quote of the string opening at `i` (found by search, not by stepping). */
function stringEnd(text: string, i: number): number {
  for (let q = text.indexOf('"', i + 1); q >= 0; q = text.indexOf('"', q + 1)) {
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q + 1;
  }
  return text.length;
}

/** Past the end of the value starting at `i`. */
function valueEnd(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return stringEnd(text, i);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number or a literal: up to the next delimiter.
    let j = i;
    for (
      let c = text.charCodeAt(j);
      j < text.length && c !== COMMA && c !== CLOSE_BRACE && c !== CLOSE_BRACKET && c !== 32 && c !== 10 && c !== 13 && c !== 9;
      c = text.charCodeAt(++j)
    );
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; ) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) {
      j = stringEnd(text, j);
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return j + 1;
    j++;
  }
  return text.length;
}
