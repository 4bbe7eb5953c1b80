// Long texts come back turn after turn: OpenClaw resends a 40k-character system prompt and the
// whole history with every request, and reading one that long costs milliseconds. Their spans are
// remembered by the text's SHA-256, so each is read once; spans do not depend on the session
// (placeholders are numbered when applied), so one table serves every session.
import { createHash } from 'node:crypto';
import type { Span } from './spans.ts';

/** Shorter texts are read again: hashing one costs about what reading it does. */
export const MEMO_MIN_CHARS = 2048;

/** Each reader's spans of long texts, the least recently used text forgotten. Callers must not change the arrays. */
export class SpanMemo<Kind extends string> {
  private readonly byDigest = new Map<string, Partial<Record<Kind, Span[]>>>();
  /** The text hashed last: detect() asks every reader about the same text in a row. */
  private last: { text: string; digest: string } | undefined;

  constructor(
    private readonly readers: Record<Kind, (text: string) => Span[]>,
    private readonly capacity = 4096,
  ) {}

  spans(text: string, kind: Kind): Span[] {
    if (text.length < MEMO_MIN_CHARS) return this.readers[kind](text);
    if (this.last?.text !== text) this.last = { text, digest: createHash('sha256').update(text).digest('base64') };
    const digest = this.last.digest;
    const entry: Partial<Record<Kind, Span[]>> = this.byDigest.get(digest) ?? {};
    this.byDigest.delete(digest);
    this.byDigest.set(digest, entry);
    if (this.byDigest.size > this.capacity) this.byDigest.delete(this.byDigest.keys().next().value!);
    entry[kind] ??= this.readers[kind](text);
    return entry[kind];
  }
}
