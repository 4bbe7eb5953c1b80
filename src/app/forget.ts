// Forgetting sessions: `openclaw-rl forget`, `DELETE /sessions/:id` and `storage.retention_days`
// all come here. One forget, in order:
//  1. the live parts drop the session at once (tracker, session views, stored Responses, the
//     judge's placeholder table, feedback waiting for its turn), so nothing new is written for it;
//  2. the store deletes its turns (pending, samples in any state, drops) and records the session
//     as forgotten, in one transaction: from here the forget is durable, and the store refuses the
//     turns if they come back (a judgement in flight, a replay);
//  3. the journal, judge.jsonl and feedback.jsonl lines are blanked in place, and SQLite's
//     write-ahead log is emptied into the file (deleted rows are zeroed: secure_delete);
//  4. the store marks the forget done.
// A crash after 2 leaves the forget undone in the store; every start finishes such forgets before
// it replays the journal, so a forgotten session never comes back. Weights cannot unlearn: a
// forget says which training steps used the session, and which kept checkpoint predates them.
import type { Logger } from 'pino';
import { join } from 'node:path';
import { OpenClawError } from '../errors/index.ts';
import type { WireProtocol } from '../gateway/index.ts';
import type { SessionViews } from '../gateway/index.ts';
import { forgetInPipelineRecords, type ScoringStage } from '../pipeline/index.ts';
import type { ForgetOutcome, SampleStore } from '../samples/index.ts';
import { forgetInJournal, lastJournalTurn, type RecordWriter, type SessionTracker } from '../sessions/index.ts';
import { listCheckpoints } from '../trainer/index.ts';

/** What one forget did (the JSON of DELETE /sessions/:id and of `openclaw-rl forget`). */
export interface ForgetReport {
  session_id: string;
  /** Turns numbered up to this one are gone; the session's later turns (if it goes on) are kept. */
  through_turn: number;
  deleted: { pending_turns: number; samples: number; turn_drops: number; journal_lines: number; log_lines: number };
  /** True once every file is scrubbed; false when SQLite's log could not be emptied yet (the next start, or the next forget, finishes it). */
  complete: boolean;
  /** Training steps that trained on the session's samples: the weights of those steps and later ones have seen it. */
  trained_steps: number[];
  /** The newest kept policy version saved before those steps (`openclaw-rl rollback --to`), or null. */
  rollback_to: number | null;
  note: string | null;
}

/** Where a run keeps its files (the parts a forget scrubs). */
export interface RunFiles {
  outputDir: string;
  journalPath: string;
  recordsDir: string;
}

/** The files of the run in `outputDir`. */
export function runFiles(outputDir: string): RunFiles {
  const recordsDir = join(outputDir, 'records');
  return { outputDir, journalPath: join(recordsDir, 'turns.jsonl'), recordsDir };
}

/** The live parts a forget reaches in a running server. */
export interface LiveParts {
  tracker: SessionTracker;
  views: SessionViews;
  records: RecordWriter;
  pipeline: ScoringStage;
  protocols: readonly WireProtocol[];
  /** Drops the session's journal positions still waiting for the store (they hold its turns). */
  forgetCheckpoints(sessionId: string): void;
}

/** The points between a forget's steps (ServerHooks.onForgetStep). */
export type ForgetStep = 'live' | 'stored' | 'journal' | 'logs' | 'wal';

const WAL_TRIES = 5;

/** Empties SQLite's write-ahead log, trying a few times while a reader holds it; true when done. */
async function truncateWal(store: SampleStore): Promise<boolean> {
  for (let i = 0; i < WAL_TRIES; i++) {
    if (store.truncateWal()) return true;
    await new Promise((r) => setTimeout(r, 20 * 2 ** i));
  }
  return false;
}

function reportOf(
  files: RunFiles,
  sessionId: string,
  through: number,
  d: ForgetOutcome,
  lines: { journal: number; log: number },
  complete: boolean,
): ForgetReport {
  const trained = d.trainedSteps;
  const first = trained[0];
  const before = first === undefined ? [] : listCheckpoints(files.outputDir).filter((c) => c.manifest.step < first);
  const rollbackTo = before.at(-1)?.manifest.policy_version ?? null;
  const notes: string[] = [];
  if (trained.length > 0 || d.trainedWithoutStep) {
    notes.push(
      `${trained.length > 0 ? `training step(s) ${trained.join(', ')}` : 'an earlier training step'} trained on this session's samples; ` +
        'the weights cannot unlearn them' +
        (rollbackTo !== null
          ? `: roll back to policy version ${rollbackTo} (openclaw-rl rollback --to ${rollbackTo}) to serve weights from before them`
          : ''),
    );
  }
  if (d.leased > 0) notes.push(`${d.leased} sample(s) were in a training step in progress, which may still train on them`);
  if (!complete) notes.push("SQLite's write-ahead log was busy and still holds old pages; the next forget or start empties it");
  return {
    session_id: sessionId,
    through_turn: through,
    deleted: { pending_turns: d.pending, samples: d.samples, turn_drops: d.drops, journal_lines: lines.journal, log_lines: lines.log },
    complete,
    trained_steps: trained,
    rollback_to: rollbackTo,
    note: notes.length > 0 ? notes.join('; ') : null,
  };
}

/**
 * Finishes the forgets a crash (or a busy log) left undone: blanks their lines in the journal and
 * the pipeline's logs, empties the write-ahead log, marks them done. Call before the journal is
 * replayed, with no pipeline running (start-up, offline).
 */
export async function finishForgets(store: SampleStore, files: RunFiles, log?: Logger): Promise<number> {
  const open = store.unfinishedForgets();
  if (open.length === 0) return 0;
  for (const f of open) {
    forgetInJournal(files.journalPath, f.sessionId, f.throughTurn);
    forgetInPipelineRecords(files.recordsDir, f.sessionId, f.throughTurn);
  }
  if (!(await truncateWal(store))) return 0;
  for (const f of open) store.finishForget(f.sessionId, f.throughTurn);
  log?.info({ sessions: open.length }, 'finished forgetting sessions a previous process had started to forget');
  return open.length;
}

/** A forget of a stopped run (openclaw-rl forget without --url): the store and the files only. */
export async function forgetOffline(store: SampleStore, files: RunFiles, sessionId: string): Promise<ForgetReport> {
  const through = Math.max(store.lastTurnId(sessionId), lastJournalTurn(files.journalPath, sessionId));
  if (through === 0) throw unknownSession(sessionId);
  const deleted = store.forgetSession(sessionId, through);
  const journal = forgetInJournal(files.journalPath, sessionId, through);
  const logLines = forgetInPipelineRecords(files.recordsDir, sessionId, through);
  const complete = await truncateWal(store);
  if (complete) store.finishForget(sessionId, through);
  return reportOf(files, sessionId, through, deleted, { journal, log: logLines }, complete);
}

function unknownSession(sessionId: string): OpenClawError {
  return new OpenClawError('not_found', `session ${JSON.stringify(sessionId)} has no recorded turns here (nothing to forget)`, {
    code: 'session_not_found',
  });
}

/** Forgets sessions in a running server; forgets run one at a time. */
export class Forgetter {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: SampleStore,
    private readonly files: RunFiles,
    private readonly live: LiveParts,
    private readonly log: Logger,
    private readonly onStep?: (step: ForgetStep) => Promise<void> | void,
  ) {}

  /** Forgets one session (all its turns so far); 404 (session_not_found) when nothing of it is known. */
  forget(sessionId: string): Promise<ForgetReport> {
    return this.serial(() => this.forgetNow(sessionId));
  }

  /**
   * Forgets every session whose newest stored turn is older than `cutoffMs` (retention, `forget
   * --before`), except those still live in the tracker.
   */
  forgetBefore(cutoffMs: number): Promise<ForgetReport[]> {
    return this.serial(async () => {
      const live = new Set(this.live.tracker.sessionIds());
      const out: ForgetReport[] = [];
      for (const s of this.store.sessionsIdleBefore(cutoffMs)) {
        if (!live.has(s.sessionId)) out.push(await this.forgetNow(s.sessionId));
      }
      return out;
    });
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async forgetNow(sessionId: string): Promise<ForgetReport> {
    const { live } = this;
    const through = Math.max(live.tracker.forget(sessionId), this.store.lastTurnId(sessionId));
    if (through === 0) throw unknownSession(sessionId);
    live.views.forget(sessionId, through);
    for (const p of live.protocols) p.forgetSession?.(sessionId);
    live.records.forgetSession(sessionId);
    live.forgetCheckpoints(sessionId);
    await this.onStep?.('live');
    const deleted = this.store.forgetSession(sessionId, through);
    await this.onStep?.('stored');
    const journal = forgetInJournal(this.files.journalPath, sessionId, through);
    await this.onStep?.('journal');
    const logLines = await live.pipeline.forget(sessionId, through);
    await this.onStep?.('logs');
    const complete = await truncateWal(this.store);
    await this.onStep?.('wal');
    if (complete) {
      this.store.finishForget(sessionId, through);
      await finishForgets(this.store, this.files, this.log); // any earlier one left busy
    }
    const report = reportOf(this.files, sessionId, through, deleted, { journal, log: logLines }, complete);
    this.log.info({ session: sessionId, through_turn: through, deleted: report.deleted, complete }, 'forgot a session');
    return report;
  }
}

const DAY_MS = 86_400_000;
const RETENTION_EVERY_MS = 3_600_000;

/**
 * Forgets, now and every hour, the sessions idle for more than `days` days (storage.retention_days);
 * returns the timer (undefined when retention is off).
 */
export function startRetention(days: number | undefined, forgetter: Forgetter, log: Logger): NodeJS.Timeout | undefined {
  if (days === undefined) return undefined;
  const sweep = () => {
    forgetter.forgetBefore(Date.now() - days * DAY_MS).then(
      (done) => {
        if (done.length > 0)
          log.info({ sessions: done.length, retention_days: days }, 'retention: forgot sessions older than the retention period');
      },
      (err: unknown) => log.error({ err }, 'retention: forgetting old sessions failed; the next hourly sweep tries again'),
    );
  };
  setImmediate(sweep);
  const timer = setInterval(sweep, RETENTION_EVERY_MS);
  timer.unref();
  return timer;
}

/** The /healthz and report fields on how old the kept records are. */
export function recordsAge(
  store: SampleStore,
  retentionDays: number | undefined,
): { oldest_turn_at: string | null; retention_days: number | null } {
  const at = store.oldestTurnAt();
  return { oldest_turn_at: at === null ? null : new Date(at).toISOString(), retention_days: retentionDays ?? null };
}
