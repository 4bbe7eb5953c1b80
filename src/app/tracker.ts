// The session tracker as the app wires it: each completed turn is journalled before the client
// gets its answer (a failed write refuses the turn with a 503), each finalised turn goes to the
// scoring stage once the gateway is idle, and the sessions the journal replay left waiting for a
// next state are restored. In: the config, the journal parts, the scoring stage, caller hooks.
// Out: the tracker.
import type { Config } from '../config/index.ts';
import type { SessionViews } from '../gateway/index.ts';
import type { ScoringStage } from '../pipeline/index.ts';
import type { SampleStore } from '../samples/index.ts';
import { SessionTracker, compileIgnorePatterns, compileStripPatterns, type JournalPosition } from '../sessions/index.ts';
import type { OpenedJournal } from './open-journal.ts';
import type { ServerHooks } from './options.ts';

export function createTracker(
  config: Config,
  parts: { store: SampleStore; journal: OpenedJournal; views: SessionViews; pipeline: ScoringStage; hooks: ServerHooks },
): SessionTracker {
  const { store, views, pipeline, hooks } = parts;
  const { records, storage, checkpoints, replay } = parts.journal;
  const s = config.server;
  const tracker = new SessionTracker(
    {
      defaultTurnType: s.default_turn_type,
      fallback: s.session_fallback,
      idleTimeoutMs: s.session_idle_timeout_s * 1000,
      maxSessions: s.max_sessions,
      ignorePatterns: compileIgnorePatterns(s.ignore_message_patterns),
      stripPatterns: compileStripPatterns(s.strip_from_next_state),
      lastTurnIdOf: (id) => store.lastTurnId(id),
    },
    {
      onTurnCompleted(turn) {
        let at: JournalPosition;
        try {
          at = records.turnCompleted(turn);
        } catch (err) {
          // Not acknowledged: the client gets this error (a 503 naming the path and errno) instead of its answer.
          storage.report('journal', records.path, err);
          throw storage.refusal() ?? err;
        }
        storage.ok('journal');
        checkpoints.written(turn, at);
        views.turnCompleted(turn);
        hooks.onTurnCompleted?.(turn);
      },
      onTurnFinalized(turn) {
        try {
          records.turnFinalized(turn);
        } catch (err) {
          // The turn still goes to the store below; only its journal line (for replay) is missing.
          // Never thrown: this runs inside the next request's bookkeeping and at shutdown.
          storage.report('journal', records.path, err);
        }
        views.turnFinalized(turn);
        hooks.onTurnFinalized?.(turn);
        // A turn is finalised while the *next* request is being read; storing and judging it
        // wait until the gateway has no request in flight.
        pipeline.queueTurnFinalized(turn);
      },
      onSessionClosed(id, reason) {
        hooks.onSessionClosed?.(id, reason);
        pipeline.queueSessionClosed(id);
      },
    },
  );
  // Turn ids continue across restarts (the replayed part here, the store for the rest), so a resumed
  // session never reuses one; sessions waiting for a next state are restored.
  tracker.resumeNumbering(replay.lastTurnIds);
  for (const { turn, at } of replay.open) {
    tracker.restore(turn);
    views.turnCompleted(turn);
    checkpoints.written(turn, at);
  }
  return tracker;
}

/** Ends idle sessions every quarter of the idle timeout (1 s to 60 s apart); returns the timer. */
export function startIdleSweep(config: Config, tracker: SessionTracker): NodeJS.Timeout {
  const every = Math.min(60_000, Math.max(1000, config.server.session_idle_timeout_s * 250));
  const sweep = setInterval(() => tracker.expireIdle(), every);
  sweep.unref();
  return sweep;
}
