// A turn's messages are serialised into the upstream request and again into the `turn` record
// line. OpenClaw sends a 40k-character system prompt with every request, and each JSON.stringify
// of it costs ~100 µs here. This keeps the JSON text of such a value once it is computed (keyed by the
// object itself), so the later serialisation splices it in and then lets it go: a text kept until
// the session's next request would be copied by every young-generation GC in between.
// Only for values that are never changed after their text is taken (parsed request messages and
// tools): a kept text would not follow a change. A request's own text serves as well: its members
// are found in it (`topLevelMembers`) and kept for the values JSON.parse made of them.

import { withoutKeys } from './objects.ts';

const texts = new WeakMap<object, string>();

/** Values whose text may be kept: objects and arrays (a WeakMap key). */
const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** The JSON text of `value`: computed on first use and kept for later calls. */
export function jsonText(value: object): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/** The members of a chat request whose text is shared: the upstream request and the `turn` record. */
export const SHARED_CHAT_MEMBERS: ReadonlySet<string> = new Set(['messages', 'tools']);

/**
 * JSON.stringify(obj), with the values under `keys` that are objects serialised once (jsonText)
 * and spliced in. Those keys come last in the text; no JSON reader minds the order. With
 * `release`, their kept texts are let go (the last serialisation that needs them).
 */
export function stringifyWithShared(obj: Record<string, unknown>, keys: ReadonlySet<string>, release = false): string {
  if (![...keys].some((key) => isObject(obj[key]))) return JSON.stringify(obj);
  let tail = '';
  for (const key of keys) {
    const v = obj[key];
    const text = isObject(v) ? jsonText(v) : JSON.stringify(v);
    if (text !== undefined) tail += `,${JSON.stringify(key)}:${text}`;
    if (release && isObject(v)) texts.delete(v);
  }
  const head = JSON.stringify(withoutKeys(obj, keys));
  return head === '{}' ? `{${tail.slice(1)}}` : `${head.slice(0, -1)}${tail}}`;
}

/** Request bodies and the text each was parsed from (kept by the server's JSON parser). */
const parsedFrom = new WeakMap<object, string>();

/** Keeps the text a request body was parsed from, for `shareParsedMembers`. */
export function keepParsedText(body: object, text: string): void {
  parsedFrom.set(body, text);
}

/**
 * For the members `keys` of a body as the server parsed it (before anything changed it), keeps the
 * text each was parsed from as its JSON text: their serialisation into the upstream request then
 * copies that text instead of formatting them again.
 */
export function shareParsedMembers(body: Record<string, unknown>, keys: ReadonlySet<string>): void {
  const text = parsedFrom.get(body);
  if (text === undefined) return;
  parsedFrom.delete(body);
  for (const [key, member] of topLevelMembers(text, keys) ?? []) {
    const v = body[key];
    // A pretty-printed body has line breaks between tokens: its text would split a JSONL record.
    if (isObject(v) && !member.includes('\n') && !member.includes('\r')) texts.set(v, member);
  }
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
    for (let c = text.charCodeAt(j); j < text.length && c !== COMMA && c !== CLOSE_BRACE && c !== CLOSE_BRACKET && c !== 32 && c !== 10 && c !== 13 && c !== 9; c = text.charCodeAt(++j));
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

/** Lets go of the text kept for `value` (its last serialisation is done). */
export function releaseText(value: object): void {
  texts.delete(value);
}
