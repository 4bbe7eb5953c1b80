// Incremental prompt encoding. Each turn of an agent session renders to a prompt that extends an
// earlier one, and a chat template separates messages with added tokens (`<|im_start|>`…) that the
// tokenizer cuts the text at before anything else: the ids of the text from such a token on do not
// depend on what precedes it. So a prompt is encoded as (ids of the longest recently seen rendered
// prefix that ends at such a cut) + (ids of the rest). The prefix is checked on the rendered text,
// never on messages: templates rewrite earlier turns (Qwen3 drops the <think> block of assistant
// turns before the last user message), so identical messages do not imply identical text.

/** Counters of what the cache saved (for the bench and /metrics). */
export interface PrefixEncoderStats {
  calls: number;
  /** Calls that reused a cached prefix. */
  hits: number;
  /** Characters whose ids came from the cache. */
  reusedChars: number;
  /** Characters that were encoded. */
  encodedChars: number;
}

/** One encoded text with the token count at each cut (a start of a split token). */
interface Entry {
  text: string;
  ids: number[];
  /** Character offsets of cuts, ascending; 0 is always the first. */
  cuts: number[];
  /**
   * Where the split token at each cut ends: another text may reuse the ids before a cut only if
   * it holds the whole token there too (a partial match could merge with the text before).
   */
  cutEnds: number[];
  /** `cutIds[k]`: number of ids of `text.slice(0, cuts[k])`. */
  cutIds: number[];
}

/** How many characters compare at once before falling back to a character scan. */
const COMPARE_BLOCK = 2048;

/** Encodes rendered prompts, reusing the ids of recent prompts' common prefixes. */
export class PrefixEncoder {
  readonly stats: PrefixEncoderStats = { calls: 0, hits: 0, reusedChars: 0, encodedChars: 0 };
  private readonly entries = new Map<string, Entry>();
  private readonly splitPattern: RegExp | null;

  /**
   * @param encodeText encodes text without adding tokens of its own (`HfTokenizer.encode`).
   * @param splitTokens tokens the tokenizer always cuts the text at (`HfTokenizer.splitTokens`).
   * @param capacity how many recent prompts to keep (least recently used go first).
   */
  constructor(
    private readonly encodeText: (text: string) => number[],
    splitTokens: readonly string[],
    private readonly capacity = 16,
  ) {
    if (!Number.isInteger(capacity) || capacity < 0)
      throw new RangeError(`PrefixEncoder capacity must be a non-negative integer, got ${capacity}`);
    // Longest first, so a token that is a prefix of another never hides it.
    const alternatives = [...splitTokens].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.splitPattern = alternatives.length > 0 ? new RegExp(alternatives.join('|'), 'g') : null;
  }

  /** Ids of `text`, identical to `encodeText(text)`. */
  encode(text: string): number[] {
    this.stats.calls++;
    const exact = this.entries.get(text);
    if (exact !== undefined) {
      this.touch(exact);
      this.stats.hits++;
      this.stats.reusedChars += text.length;
      return exact.ids.slice();
    }
    const base = this.longestCachedPrefix(text);
    const entry: Entry = { text, ids: [], cuts: [0], cutEnds: [0], cutIds: [0] };
    let start = 0;
    if (base !== null) {
      const k = base.cut;
      entry.ids = base.entry.ids.slice(0, base.entry.cutIds[k]);
      entry.cuts = base.entry.cuts.slice(0, k + 1);
      entry.cutEnds = base.entry.cutEnds.slice(0, k + 1);
      entry.cutIds = base.entry.cutIds.slice(0, k + 1);
      start = base.entry.cuts[k];
      this.stats.hits++;
      this.stats.reusedChars += start;
    }
    this.encodeFrom(entry, start);
    this.remember(entry);
    return entry.ids.slice();
  }

  /** Drops every cached prompt. */
  clear(): void {
    this.entries.clear();
  }

  /** Encodes `entry.text` from `start` (a cut) piece by piece, recording each cut it passes. */
  private encodeFrom(entry: Entry, start: number): void {
    const { text } = entry;
    this.stats.encodedChars += text.length - start;
    let pieceStart = start;
    const pushPiece = (end: number) => {
      if (end <= pieceStart) return;
      const ids = this.encodeText(text.slice(pieceStart, end));
      for (const id of ids) entry.ids.push(id);
      pieceStart = end;
    };
    if (this.splitPattern !== null) {
      const re = this.splitPattern;
      re.lastIndex = start;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        if (m.index > start) {
          pushPiece(m.index);
          entry.cuts.push(m.index);
          entry.cutEnds.push(m.index + m[0].length);
          entry.cutIds.push(entry.ids.length);
        }
      }
    }
    pushPiece(text.length);
  }

  /** The cached entry sharing the longest prefix with `text` that ends at one of its cuts. */
  private longestCachedPrefix(text: string): { entry: Entry; cut: number } | null {
    let best: { entry: Entry; cut: number } | null = null;
    let bestChars = 0;
    for (const entry of this.entries.values()) {
      const common = commonPrefixLength(entry.text, text);
      const cut = lastCutAtOrBefore(entry.cutEnds, common);
      if (entry.cuts[cut] > bestChars) {
        best = { entry, cut };
        bestChars = entry.cuts[cut];
      }
    }
    return best;
  }

  private touch(entry: Entry): void {
    this.entries.delete(entry.text);
    this.entries.set(entry.text, entry);
  }

  private remember(entry: Entry): void {
    if (this.capacity === 0) return;
    this.entries.set(entry.text, entry);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/** Length of the longest common prefix (block compares first: engines compare flat strings fast). */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i + COMPARE_BLOCK <= n && a.slice(i, i + COMPARE_BLOCK) === b.slice(i, i + COMPARE_BLOCK)) i += COMPARE_BLOCK;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Index of the last cut whose split token ends at or before `limit` (ascending, starting with 0). */
function lastCutAtOrBefore(cutEnds: number[], limit: number): number {
  let lo = 0;
  let hi = cutEnds.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cutEnds[mid] <= limit) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
