// Forgetting a session in the turn journal: every line of its turns up to a number is blanked in
// place in every segment (files/blank-lines.ts), so positions stay valid and a crash part-way is
// finished by running it again. The store's `forgotten` table is what makes it durable and
// resumable (app/forget.ts); this only scrubs the files.
import { blankLines } from '../files/blank-lines.ts';
import { lineHead, scanHeads } from './records.ts';
import { journalSegments } from './segments.ts';

/** Blanks the journal lines of `sessionId`'s turns numbered up to `throughTurn`; returns how many. */
export function forgetInJournal(active: string, sessionId: string, throughTurn: number): number {
  let n = 0;
  for (const seg of journalSegments(active)) {
    n += blankLines(seg.path, (text) => {
      const head = lineHead(text);
      return head !== undefined && head.session === sessionId && head.turnId <= throughTurn;
    });
  }
  return n;
}

/** The highest turn number the journal holds for a session (0 for none): what an offline forget covers. */
export function lastJournalTurn(active: string, sessionId: string): number {
  let last = 0;
  scanHeads(active, undefined, (head) => {
    if (head !== undefined && head.session === sessionId) last = Math.max(last, head.turnId);
  });
  return last;
}
