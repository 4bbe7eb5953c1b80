// A turn's messages are serialised into the upstream request and again into the `turn` record
// line. OpenClaw sends a 40k-character system prompt with every request, and each JSON.stringify
// of it costs ~150 µs. This keeps the JSON text of such a value once it is computed (keyed by the
// object itself), so the later serialisation splices it in and then lets it go: a text kept until
// the session's next request would be copied by every young-generation GC in between.
// Only for values that are never changed after their text is taken (parsed request messages and
// tools): a kept text would not follow a change.

const texts = new WeakMap<object, string>();

/** The JSON text of `value`: computed on first use and kept for later calls. */
export function jsonText(value: object): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/**
 * JSON.stringify(obj), with the values under `keys` that are objects serialised once (jsonText)
 * and spliced in. Those keys come last in the text; no JSON reader minds the order. With
 * `release`, their kept texts are let go (the last serialisation that needs them).
 */
export function stringifyWithShared(obj: Record<string, unknown>, keys: readonly string[], release = false): string {
  let rest: Record<string, unknown> | undefined;
  let tail = '';
  for (const key of keys) {
    const v = obj[key];
    if (typeof v !== 'object' || v === null) continue;
    rest ??= { ...obj };
    delete rest[key];
    tail += `,${JSON.stringify(key)}:${jsonText(v)}`;
    if (release) texts.delete(v);
  }
  if (rest === undefined) return JSON.stringify(obj);
  const head = JSON.stringify(rest);
  return head === '{}' ? `{${tail.slice(1)}}` : `${head.slice(0, -1)}${tail}}`;
}
