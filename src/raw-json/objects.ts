// Shallow copies that leave keys out. `{ ...obj }` followed by `delete` turns the copy into a
// dictionary-mode object in V8: every later property write and JSON.stringify of it is slower,
// and these copies are made (and serialised) on every proxied request.

/** A shallow copy of `obj` without the keys in `omit` (own enumerable keys, order kept). */
export function withoutKeys<T extends Record<string, unknown>>(obj: T, omit: ReadonlySet<string>): T {
  const out: Record<string, unknown> = {};
  for (const key in obj) {
    if (Object.hasOwn(obj, key) && !omit.has(key)) out[key] = obj[key];
  }
  return out as T;
}
