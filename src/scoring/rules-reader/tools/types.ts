// What one parser of the tool-output reader concluded.

/** A verdict from one recognised format: +1 it did what it was run for, −1 it failed, 0 information only. */
export interface ToolFinding {
  score: 1 | 0 | -1;
  /** The fix the output itself states (a `help:` line, a psql `HINT:`, "did you mean …"), or null. */
  hint: string | null;
  /** What was recognised, for the judge record (e.g. `pytest:"1 failed, 3 passed"`). */
  cue: string;
}

export type ToolParser = (text: string, lines: string[]) => ToolFinding[];

export const finding = (score: 1 | 0 | -1, cue: string, hint: string | null = null): ToolFinding => ({ score, hint, cue });

/** A stated fix, trimmed: no trailing full stop or backticks around a lone command. */
export function cleanHint(text: string): string | null {
  const h = text
    .trim()
    .replace(/^([`'"])([^`'"]*)\1$/, '$2')
    .replace(/\s+/g, ' ')
    .replace(/[.:]$/, '')
    .trim();
  return h.length >= 3 ? h : null;
}
