// The turn journal at start-up and while serving. Start-up: replay the journal from the sample
// store's checkpoint (sessions/replay.ts) — turns the store missed go back into the pipeline,
// sessions waiting for a next state are restored into the tracker. Serving: remember the position
// of every turn line until the store holds its turn, and save the checkpoint (the earliest such
// position, or the journal's end when there is none) in the store every second and at close, so
// the next start reads only what the store may lack.
// The checkpoint is written from this thread's store connection; with scoring in a worker thread,
// a turn counts as held once the worker's commit is visible here, so the checkpoint never runs ahead.
import type { Logger } from 'pino';
import type { SampleStore } from '../samples/index.ts';
import { toPendingTurn } from '../pipeline/index.ts';
import { positionBefore, replayJournal, type JournalPosition, type RecordWriter, type ReplayResult, type Turn } from '../sessions/index.ts';
import { turnKey } from '../rl/index.ts';

// Turn lines are written for main turns, which always have a turn id (advance() relies on it too).
const keyOf = (turn: Turn) => turnKey(turn.sessionId, turn.turnId!);

/** Tracks which turn lines the store may still lack, and saves the journal checkpoint. */
export class JournalCheckpoints {
  private readonly unsettled = new Map<string, { turn: Turn; at: JournalPosition }>();
  private timer: NodeJS.Timeout | undefined;
  private saved: JournalPosition | null;

  constructor(
    private readonly store: SampleStore,
    private readonly records: RecordWriter,
    private readonly log: Logger,
    /** Told when the checkpoint cannot be saved (the storage monitor). */
    private readonly onError?: (err: unknown) => void,
  ) {
    this.saved = store.journalCheckpoint();
  }

  /** A turn line was written at `at` (or replayed from there). */
  written(turn: Turn, at: JournalPosition): void {
    this.unsettled.set(keyOf(turn), { turn, at });
  }

  /** Drops a forgotten session's turns (the store refuses them, so they would never settle). */
  forgetSession(sessionId: string): void {
    for (const [key, u] of this.unsettled) if (u.turn.sessionId === sessionId) this.unsettled.delete(key);
  }

  /** Saves the checkpoint now (a no-op when it did not move); never throws. */
  advance(): void {
    try {
      let min: JournalPosition | undefined;
      for (const [key, u] of this.unsettled) {
        if (u.turn.finalized && this.store.hasTurn(u.turn.sessionId, u.turn.turnId!)) this.unsettled.delete(key);
        else if (min === undefined || positionBefore(u.at, min)) min = u.at;
      }
      const cp = min ?? this.records.position;
      if (this.saved !== null && this.saved.segment === cp.segment && this.saved.offset === cp.offset) return;
      this.store.setJournalCheckpoint(cp);
      this.saved = cp;
    } catch (err) {
      // A busy or full store: the old checkpoint stays, which only makes the next start read more.
      this.onError?.(err);
      this.log.warn({ err }, 'could not save the journal checkpoint; the next start replays more of the journal');
    }
  }

  /** Saves the checkpoint every `ms` until `stop`. */
  start(ms = 1000): void {
    this.timer = setInterval(() => this.advance(), ms);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Turns whose line is written but not yet held by the store. */
  get size(): number {
    return this.unsettled.size;
  }
}

/**
 * Replays the journal from the store's checkpoint and logs what it found. Finished turns the store
 * lacks are stored as pending here, so the pipeline's start re-judges them with the rest.
 */
export function replayFromCheckpoint(recordsPath: string, store: SampleStore, log: Logger): ReplayResult {
  const from = store.journalCheckpoint() ?? undefined;
  const result = replayJournal(recordsPath, from, store, (turn) => {
    try {
      store.addPendingTurn(toPendingTurn(turn, undefined, Date.now()));
    } catch (err) {
      log.error(
        { err, session: turn.sessionId, turn: turn.turnId },
        'could not store a turn found in the journal; the next start tries again',
      );
    }
  });
  const { stats } = result;
  if (stats.turns > 0 || result.requeued > 0) {
    log.info(
      {
        from: from ?? 'start',
        bytes: stats.bytes,
        turns: stats.turns,
        ms: Math.round(stats.ms),
        requeued: result.requeued,
        restored_sessions: result.open.length,
        skipped_lines: stats.skipped,
      },
      'replayed the turn journal',
    );
  }
  return result;
}
