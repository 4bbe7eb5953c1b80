// The durable sample store: one SQLite file (WAL) per run. Every method that writes is one
// transaction, and a write is acknowledged when the method returns: from then on a crash of the
// process (or, with synchronous=FULL, of the machine) cannot lose it.
// The one exception is a write group (`groupWrites`, opened by the scoring pipeline for each intake
// drain): the writes made until the event loop's next check phase share one transaction and are
// acknowledged when it commits — then, or at `flush` / `close` — not when each method returns; a
// failed commit loses the whole group and goes to the group's `onError`. This connection reads the
// group's writes at once; other connections (a scoring worker's, the trainer's) after the commit.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { OpenClawError, invalidRequest } from '../errors/index.ts';
import type { Sample } from './types.ts';
import type {
  ForgetOutcome,
  Lease,
  LeaseOptions,
  LeaseOrder,
  SampleTallyRow,
  VersionTally,
  ListOptions,
  OpenOptions,
  PendingTurn,
  RecoveryReport,
  SampleState,
  StoreCounts,
  StoredSample,
  TurnOutcome,
  TurnRef,
  TurnStatus,
  VersionEvaluationRow,
} from './store-types.ts';
import { checkSchemaReadable, ensureSchema } from './schema.ts';
import { checkPending, pendingToRow, rowToPending, rowToSample, sampleToRow } from './rows.ts';
import { turnKey } from '../rl/index.ts';
import type { PendingRow, SampleRow, StoredSampleRow } from './rows.ts';

/** File name of the store inside a run's output folder. */
export const SAMPLE_STORE_FILE = 'samples.sqlite';

const INSERT_PENDING = `INSERT INTO pending_turns
  (session_id, turn_id, policy_version, prompt_messages, prompt_ids, response_text, response_ids,
   rollout_logprobs, tool_calls, next_state, extra, created_at)
  VALUES (@session_id, @turn_id, @policy_version, @prompt_messages, @prompt_ids, @response_text,
   @response_ids, @rollout_logprobs, @tool_calls, @next_state, @extra, @created_at)`;

const INSERT_SAMPLE = `INSERT INTO samples
  (id, session_id, turn_id, policy_version, prompt_ids, response_ids, rollout_logprobs, loss_mask,
   reward, teacher_logprobs, teacher_topk, type, votes, hint, created_at, updated_at, teacher_prompt_ids)
  VALUES (@id, @session_id, @turn_id, @policy_version, @prompt_ids, @response_ids, @rollout_logprobs,
   @loss_mask, @reward, @teacher_logprobs, @teacher_topk, @type, @votes, @hint, @created_at, @updated_at,
   @teacher_prompt_ids)`;

function openDatabase(path: string, opts: OpenOptions): Database.Database {
  const inMemory = path === ':memory:';
  if (opts.readOnly === true) return openReadOnly(path, opts);
  if (!inMemory) mkdirSync(resolve(dirname(path)), { recursive: true });
  return connect(
    path,
    { timeout: opts.busyTimeoutMs ?? 5000 },
    (db) => {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (!inMemory && mode !== 'wal') {
        throw new OpenClawError(
          'data',
          `sample store ${path} could not switch to WAL mode (SQLite kept '${String(mode)}'); ` +
            'put the output folder on a local disk (network filesystems lack the shared memory WAL needs)',
          { code: 'store_no_wal' },
        );
      }
      db.pragma(`synchronous = ${opts.synchronous ?? 'FULL'}`);
      // Deleted rows are overwritten with zeros, not left in free pages: a forgotten session's text
      // (and a judged turn's prompt) must not stay readable in the file.
      db.pragma('secure_delete = ON');
      ensureSchema(db, path);
    },
    (message) => `cannot open sample store ${path}: ${message}; check that the file is an openclaw-rl store and the folder is writable`,
  );
}

/** ORDER BY of each lease order (LeaseOptions.order); seq breaks ties (several samples of one turn). */
const LEASE_ORDER: Readonly<Record<LeaseOrder, string>> = { arrival: 'seq', session: 'session_id, turn_id, seq' };

/** A read-only connection: no folder, file, pragma or migration is written (the store keeps its WAL mode). */
function openReadOnly(path: string, opts: OpenOptions): Database.Database {
  return connect(
    path,
    { readonly: true, fileMustExist: true, timeout: opts.busyTimeoutMs ?? 5000 },
    (db) => checkSchemaReadable(db, path),
    (message) => `cannot read sample store ${path}: ${message}; check that the file exists and is an openclaw-rl store`,
  );
}

/**
 * Opens `path` and readies the connection with `prepare`, closing it again when that fails. An
 * error that is not already an OpenClawError becomes store_open_failed, worded by `failed`.
 */
function connect(
  path: string,
  options: Database.Options,
  prepare: (db: Database.Database) => void,
  failed: (message: string) => string,
): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, options);
    prepare(db);
    return db;
  } catch (err) {
    db?.close();
    if (err instanceof OpenClawError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new OpenClawError('data', failed(message), { code: 'store_open_failed', cause: err });
  }
}

function whereOf(opts: Pick<ListOptions, 'sessionId' | 'state'>): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (opts.sessionId !== undefined) {
    clauses.push('session_id = ?');
    params.push(opts.sessionId);
  }
  if (opts.state !== undefined) {
    clauses.push('state = ?');
    params.push(opts.state);
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

function isUniqueViolation(err: unknown): boolean {
  return (
    (err as { code?: unknown })?.code === 'SQLITE_CONSTRAINT_UNIQUE' || (err as { code?: unknown })?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** The durable store of pending turns, samples and drops of one run (single writer process). */
export class SampleStore {
  /** Prepared statements by SQL text: preparing is far dearer than running, and the SQL is fixed. */
  private readonly statements = new Map<string, Database.Statement>();

  /** File the store lives in. */
  readonly path: string;
  /** What opening repaired after the previous process stopped. */
  readonly recovery: RecoveryReport;
  private readonly db: Database.Database;
  /**
   * Runs a function in a BEGIN IMMEDIATE transaction (a savepoint inside an open one). Built once:
   * `db.transaction()` builds four wrapper functions per call, which cost more than the writes.
   */
  private readonly immediate: <T>(fn: () => T) => T;
  /** True while a write group (groupWrites) is open. */
  private grouping = false;
  /**
   * Pending turns added in the open write group and not yet resolved, by turn (see groupWrites):
   * checked, but encoded only if the commit has to write them.
   */
  private readonly staged = new Map<string, PendingTurn>();

  private constructor(path: string, db: Database.Database, recoverLeases: boolean) {
    this.path = path;
    this.db = db;
    this.immediate = db.transaction((fn: () => unknown) => fn()).immediate as <T>(fn: () => T) => T;
    const leasesReturned = recoverLeases
      ? db.prepare(`UPDATE samples SET state = 'ready', lease_id = NULL, updated_at = ? WHERE state = 'leased'`).run(Date.now()).changes
      : 0;
    this.recovery = { leasesReturned, pendingTurns: this.countPending() };
  }

  /** Opens (or creates) the store at `path`, creating folders, and recovers from a crash. */
  static open(path: string, opts: OpenOptions = {}): SampleStore {
    return new SampleStore(path, openDatabase(path, opts), opts.readOnly !== true && (opts.recoverLeases ?? true));
  }

  private stmt(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  /**
   * Group commit: the writes made from now until the event loop's next check phase (setImmediate)
   * share one transaction — the scoring pipeline's turn intake and the judging that finishes in its
   * microtasks — instead of paying a commit each. A write made inside a group is durable once the
   * group commits, moments later. No-op while a transaction is open. A failed commit is rolled
   * back and handed to `onError` (it cannot be thrown to anyone from the event loop).
   * A turn added as pending and resolved within one group is never written as pending: the
   * commit makes its outcome durable at the same moment its pending row would have been.
   */
  groupWrites(onError: (err: OpenClawError) => void): void {
    if (!this.db.open || this.db.inTransaction) return;
    this.db.exec('BEGIN IMMEDIATE');
    this.grouping = true;
    setImmediate(() => {
      try {
        this.commitGroup();
      } catch (err) {
        onError(err as OpenClawError);
      }
    });
  }

  /** Commits the open write group now (a no-op without one), e.g. before another connection reads. */
  flush(): void {
    this.commitGroup();
  }

  private commitGroup(): void {
    if (!this.grouping) return;
    this.grouping = false;
    const staged = [...this.staged.values()];
    this.staged.clear();
    if (!this.db.open) return;
    try {
      // An I/O error (a full disk) can make SQLite roll the whole group back on its own.
      if (!this.db.inTransaction) throw new Error('SQLite rolled the group back after an earlier error');
      for (const turn of staged) this.stmt(INSERT_PENDING).run(pendingToRow(turn));
      this.db.exec('COMMIT');
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw new OpenClawError(
        'data',
        `sample store ${this.path}: committing a group of writes failed (${(err as Error).message}); the turns in it stay unrecorded`,
        { code: 'store_commit_failed', cause: err },
      );
    }
  }

  /** Closes the database (committing an open write group); the store cannot be used afterwards. */
  close(): void {
    this.commitGroup();
    if (this.db.open) this.db.close();
  }

  // ---- pending turns -------------------------------------------------------------------------

  /**
   * Stores a turn awaiting judgement; once this returns (inside a write group: once the group
   * commits) the turn is durable. False when its session was forgotten up to this turn: nothing is
   * stored, and the caller must not judge it.
   */
  addPendingTurn(turn: PendingTurn): boolean {
    // In a group, most turns are resolved before the commit: their row is never built.
    let row: PendingRow | undefined;
    if (this.grouping && this.db.inTransaction) checkPending(turn);
    else row = pendingToRow(turn);
    const place = this.placeOf(turn.sessionId, turn.turnId);
    if (place === 'forgotten') return false;
    if (place === 'outcome') throw duplicateTurn(turn, 'was already judged');
    if (place === 'pending') throw duplicateTurn(turn, 'is already pending');
    if (row === undefined) {
      this.staged.set(turnKey(turn.sessionId, turn.turnId), turn); // written at the commit unless resolved first
      return true;
    }
    try {
      this.stmt(INSERT_PENDING).run(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateTurn(turn, 'is already pending'); // another connection added it meanwhile
      throw err;
    }
    return true;
  }

  /** Turns still waiting for a judge, oldest first (after a restart: re-judge each of them). */
  pendingTurns(): PendingTurn[] {
    const rows = this.stmt(`SELECT * FROM pending_turns ORDER BY seq`).all() as PendingRow[];
    return [...rows, ...[...this.staged.values()].map(pendingToRow)].map(rowToPending);
  }

  /** Number of turns waiting for a judge. */
  countPending(): number {
    return (this.stmt(`SELECT count(*) AS n FROM pending_turns`).get() as { n: number }).n + this.staged.size;
  }

  /**
   * Replaces a pending turn by its outcome in one transaction: its sample(s), or a recorded drop.
   * If anything fails the turn stays pending, so it is never lost nor half-resolved. False when the
   * turn's session was forgotten meanwhile: nothing is stored.
   */
  resolvePendingTurn(ref: TurnRef, outcome: TurnOutcome): boolean {
    const now = Date.now();
    const rows =
      outcome.kind === 'samples'
        ? outcome.samples.map((s) => {
            if (s.sessionId !== ref.sessionId || s.turnId !== ref.turnId) {
              throw new OpenClawError(
                'data',
                `sample ${s.id} belongs to ${s.sessionId}:${s.turnId}, not to the turn being resolved ${ref.sessionId}:${ref.turnId}`,
                { code: 'invalid_sample_data' },
              );
            }
            return { ...sampleToRow(s), updated_at: now };
          })
        : [];
    if (outcome.kind === 'dropped' && outcome.reason === '') throw invalidRequest('a turn drop needs a non-empty reason');
    if (outcome.kind === 'samples' && rows.length === 0) {
      // Every acknowledged turn must end as a sample or a recorded drop, never as nothing.
      throw invalidRequest(`turn ${ref.sessionId}:${ref.turnId}: an outcome without samples must be a drop with a reason`);
    }
    const key = turnKey(ref.sessionId, ref.turnId);
    const staged = this.staged.get(key); // added in this write group, not written yet
    try {
      return this.immediate(() => {
        const removed =
          staged !== undefined
            ? Number(this.staged.delete(key))
            : this.stmt(`DELETE FROM pending_turns WHERE session_id = ? AND turn_id = ?`).run(ref.sessionId, ref.turnId).changes;
        if (removed === 0 && this.placeOf(ref.sessionId, ref.turnId) === 'forgotten') return false;
        if (removed === 0) {
          throw new OpenClawError('not_found', `turn ${ref.sessionId}:${ref.turnId} is not pending (never added, or already resolved)`, {
            code: 'turn_not_pending',
          });
        }
        if (outcome.kind === 'dropped') {
          this.stmt(`INSERT INTO turn_drops (session_id, turn_id, reason, info, dropped_at) VALUES (?, ?, ?, ?, ?)`).run(
            ref.sessionId,
            ref.turnId,
            outcome.reason,
            outcome.info == null ? null : JSON.stringify(outcome.info),
            now,
          );
        }
        for (const row of rows) this.insertSample(row);
        return true;
      });
    } catch (err) {
      if (staged !== undefined) this.staged.set(key, staged); // rolled back: still pending
      throw err;
    }
  }

  // ---- samples -------------------------------------------------------------------------------

  /** Stores a ready sample that did not go through the pending stage (acknowledged on return). */
  addSample(sample: Sample): void {
    this.insertSample({ ...sampleToRow(sample), updated_at: Date.now() });
  }

  private insertSample(row: SampleRow & { updated_at: number }): void {
    try {
      this.stmt(INSERT_SAMPLE).run(row);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      throw new OpenClawError('data', `sample ${row.id} is already stored; each sample is stored once`, {
        code: 'duplicate_sample',
        cause: err,
      });
    }
  }

  /**
   * Replaces the training fields of a sample that is still ready (explicit feedback after
   * judging), in one statement; false if it is not ready (leased, trained, dropped, absent), so
   * a batch a trainer already took never changes under it.
   */
  replaceReadySample(sample: Sample): boolean {
    const row = sampleToRow(sample);
    return (
      this.stmt(
        `UPDATE samples SET loss_mask = @loss_mask, reward = @reward, teacher_logprobs = @teacher_logprobs,
             teacher_topk = @teacher_topk, type = @type, votes = @votes, hint = @hint, updated_at = @updated_at
           WHERE id = @id AND state = 'ready'`,
      ).run({ ...row, updated_at: Date.now() }).changes === 1
    );
  }

  /** Drops a ready sample with a reason; false if it is not ready (leased, trained, dropped, absent). */
  dropSample(id: string, reason: string): boolean {
    if (reason === '') throw invalidRequest('a sample drop needs a non-empty reason');
    return (
      this.stmt(`UPDATE samples SET state = 'dropped', drop_reason = ?, updated_at = ? WHERE id = ? AND state = 'ready'`).run(
        reason,
        Date.now(),
        id,
      ).changes === 1
    );
  }

  /**
   * Takes up to `n` oldest ready samples for a training batch. With a staleness bound, ready
   * samples more than `maxStaleness` versions behind `currentVersion` are first dropped as
   * 'stale'. Samples beyond `n` stay ready for the next batch.
   */
  leaseBatch(n: number, opts: LeaseOptions = {}): Lease {
    if (!Number.isInteger(n) || n < 0) throw invalidRequest(`batch size must be a non-negative integer, got ${n}`);
    if (opts.maxStaleness !== undefined) {
      if (opts.currentVersion === undefined) {
        throw invalidRequest('leaseBatch: maxStaleness needs currentVersion to count staleness from');
      }
      if (!Number.isInteger(opts.maxStaleness) || opts.maxStaleness < 0) {
        throw invalidRequest(`maxStaleness must be a non-negative integer, got ${opts.maxStaleness}`);
      }
    }
    const leaseId = `lease-${randomUUID()}`;
    return this.immediate((): Lease => {
      const now = Date.now();
      let staleDropped = 0;
      if (opts.maxStaleness !== undefined && opts.currentVersion !== undefined) {
        // staleness = currentVersion - policyVersion; too stale when it exceeds maxStaleness
        staleDropped = this.stmt(
          `UPDATE samples SET state = 'dropped', drop_reason = 'stale', updated_at = ?
             WHERE state = 'ready' AND policy_version < ?`,
        ).run(now, opts.currentVersion - opts.maxStaleness).changes;
      }
      const order = LEASE_ORDER[opts.order ?? 'arrival'];
      this.stmt(
        `UPDATE samples SET state = 'leased', lease_id = ?, lease_count = lease_count + 1, updated_at = ?
           WHERE seq IN (SELECT seq FROM samples WHERE state = 'ready' ORDER BY ${order} LIMIT ?)`,
      ).run(leaseId, now, n);
      return { leaseId, samples: this.leased(leaseId, order), staleDropped };
    });
  }

  /** Marks every sample of a lease as trained (by training step `step`, when given); returns how many were. */
  markTrained(leaseId: string, step?: number): number {
    return this.stmt(`UPDATE samples SET state = 'trained', trained_step = ?, updated_at = ? WHERE lease_id = ? AND state = 'leased'`).run(
      step ?? null,
      Date.now(),
      leaseId,
    ).changes;
  }

  /**
   * Returns to ready every sample trained by a step after `step` (a resume from the checkpoint of
   * `step`: the updates of later steps were lost, so their samples were never really trained).
   */
  requeueTrainedAfter(step: number): number {
    return this.stmt(
      `UPDATE samples SET state = 'ready', lease_id = NULL, trained_step = NULL, updated_at = ?
         WHERE state = 'trained' AND trained_step > ?`,
    ).run(Date.now(), step).changes;
  }

  /** The highest policy version any turn or sample of this store was answered by (0 when empty). */
  maxPolicyVersion(): number {
    const row = this.stmt(
      `SELECT max(v) AS v FROM (SELECT max(policy_version) AS v FROM samples UNION ALL SELECT max(policy_version) FROM pending_turns)`,
    ).get() as { v: number | null };
    return row.v ?? 0;
  }

  /**
   * Moves ready, trainable samples that `pick` selects to the held-out set (state dropped, reason
   * 'holdout'): never trained, kept to evaluate new versions on. Only samples stored after
   * `afterSeq` are looked at (the caller keeps `scannedTo`, so each sample is decided once).
   */
  reserveHoldout(pick: (sessionId: string, turnId: number) => boolean, afterSeq = 0): { moved: number; scannedTo: number } {
    return this.immediate(() => {
      const rows = this.stmt(
        `SELECT seq, session_id, turn_id FROM samples WHERE seq > ? AND state = 'ready' AND loss_mask = 1 ORDER BY seq`,
      ).all(afterSeq) as { seq: number; session_id: string; turn_id: number }[];
      const now = Date.now();
      let moved = 0;
      for (const r of rows) {
        if (!pick(r.session_id, r.turn_id)) continue;
        moved += this.stmt(`UPDATE samples SET state = 'dropped', drop_reason = 'holdout', updated_at = ? WHERE seq = ?`).run(
          now,
          r.seq,
        ).changes;
      }
      return { moved, scannedTo: rows.at(-1)?.seq ?? afterSeq };
    });
  }

  /** The newest `limit` held-out samples (reserveHoldout), oldest first. */
  holdoutSamples(limit: number): StoredSample[] {
    const rows = this.stmt(
      `SELECT * FROM (SELECT * FROM samples WHERE state = 'dropped' AND drop_reason = 'holdout' ORDER BY seq DESC LIMIT ?) ORDER BY seq`,
    ).all(limit) as StoredSampleRow[];
    return rows.map(rowToSample);
  }

  /**
   * The newest `limit` held-out samples the replay evaluation can re-answer (a hint, the teacher's
   * log-probs and the hinted prompt they were scored under), oldest first.
   */
  replaySamples(limit: number): StoredSample[] {
    const rows = this.stmt(
      `SELECT * FROM (SELECT * FROM samples WHERE state = 'dropped' AND drop_reason = 'holdout' AND hint IS NOT NULL AND hint != ''
          AND teacher_logprobs IS NOT NULL AND teacher_prompt_ids IS NOT NULL ORDER BY seq DESC LIMIT ?) ORDER BY seq`,
    ).all(limit) as StoredSampleRow[];
    return rows.map(rowToSample);
  }

  /** Records a judge-free number of a policy version (replay evaluation, probes); a later value replaces an earlier one. */
  recordVersionEvaluation(e: Omit<VersionEvaluationRow, 'at'> & { at?: number }): void {
    this.stmt(
      `INSERT INTO version_evaluations (policy_version, metric, value, samples, at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (policy_version, metric) DO UPDATE SET value = excluded.value, samples = excluded.samples, at = excluded.at`,
    ).run(e.policyVersion, e.metric, e.value, e.samples, e.at ?? Date.now());
  }

  /** Every recorded version number, by version then metric (none in a store written before schema 3). */
  versionEvaluations(): VersionEvaluationRow[] {
    const exists = this.stmt(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'version_evaluations'`).get() !== undefined;
    if (!exists) return [];
    const rows = this.stmt(
      `SELECT policy_version, metric, value, samples, at FROM version_evaluations ORDER BY policy_version, metric`,
    ).all() as {
      policy_version: number;
      metric: string;
      value: number;
      samples: number;
      at: number;
    }[];
    return rows.map((r) => ({ policyVersion: r.policy_version, metric: r.metric, value: r.value, samples: r.samples, at: r.at }));
  }

  /** Drops a lease's samples with a reason (a batch the regression gate rejected: kept for inspection). */
  dropLease(leaseId: string, reason: string): number {
    return this.stmt(`UPDATE samples SET state = 'dropped', drop_reason = ?, updated_at = ? WHERE lease_id = ? AND state = 'leased'`).run(
      reason,
      Date.now(),
      leaseId,
    ).changes;
  }

  /** Returns a lease's samples to ready (the training step failed); returns how many. */
  releaseLease(leaseId: string): number {
    return this.stmt(`UPDATE samples SET state = 'ready', lease_id = NULL, updated_at = ? WHERE lease_id = ? AND state = 'leased'`).run(
      Date.now(),
      leaseId,
    ).changes;
  }

  private leased(leaseId: string, order = LEASE_ORDER.arrival): StoredSample[] {
    const rows = this.stmt(`SELECT * FROM samples WHERE lease_id = ? AND state = 'leased' ORDER BY ${order}`).all(
      leaseId,
    ) as StoredSampleRow[];
    return rows.map(rowToSample);
  }

  // ---- queries -------------------------------------------------------------------------------

  /** Number of samples ready for training. */
  countReady(): number {
    return this.countSamples({ state: 'ready' });
  }

  /** Row counts by state, plus pending turns and dropped turns. */
  counts(): StoreCounts {
    const byState: Record<SampleState, number> = { ready: 0, leased: 0, trained: 0, dropped: 0 };
    const rows = this.stmt(`SELECT state, count(*) AS n FROM samples GROUP BY state`).all() as {
      state: SampleState;
      n: number;
    }[];
    for (const r of rows) byState[r.state] = r.n;
    const droppedTurns = (this.stmt(`SELECT count(*) AS n FROM turn_drops`).get() as { n: number }).n;
    return {
      pending: this.countPending(),
      ready: byState.ready,
      leased: byState.leased,
      trained: byState.trained,
      droppedSamples: byState.dropped,
      droppedTurns,
    };
  }

  /** Drops by reason, over dropped turns and dropped samples together. */
  dropsByReason(): Record<string, number> {
    const rows = this.stmt(
      `SELECT reason, sum(n) AS n FROM (
           SELECT reason, count(*) AS n FROM turn_drops GROUP BY reason
           UNION ALL
           SELECT drop_reason AS reason, count(*) AS n FROM samples WHERE state = 'dropped' GROUP BY drop_reason
         ) GROUP BY reason ORDER BY reason`,
    ).all() as { reason: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.reason, r.n]));
  }

  /** One page of samples (oldest first), optionally of one session and/or one state. */
  listSamples(opts: ListOptions = {}): StoredSample[] {
    const limit = opts.limit ?? 50;
    const offset = opts.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 0) throw invalidRequest(`limit must be a non-negative integer, got ${limit}`, 'limit');
    if (!Number.isInteger(offset) || offset < 0) throw invalidRequest(`offset must be a non-negative integer, got ${offset}`, 'offset');
    const where = whereOf(opts);
    const rows = this.stmt(`SELECT * FROM samples ${where.sql} ORDER BY seq LIMIT ? OFFSET ?`).all(
      ...where.params,
      limit,
      offset,
    ) as StoredSampleRow[];
    return rows.map(rowToSample);
  }

  /** Number of samples matching the same filters as `listSamples` (for pagination). */
  countSamples(opts: Pick<ListOptions, 'sessionId' | 'state'> = {}): number {
    const where = whereOf(opts);
    return (this.stmt(`SELECT count(*) AS n FROM samples ${where.sql}`).get(...where.params) as { n: number }).n;
  }

  /**
   * Every sample matching the filters, oldest first, read in small pages so that neither memory
   * nor the connection is held between items (other writers keep working during an export).
   */
  *iterateSamples(opts: Pick<ListOptions, 'sessionId' | 'state'> = {}, pageSize = 256): Generator<StoredSample> {
    const where = whereOf(opts);
    const after = where.sql === '' ? 'WHERE seq > ?' : `${where.sql} AND seq > ?`;
    const page = this.stmt(`SELECT * FROM samples ${after} ORDER BY seq LIMIT ?`);
    let lastSeq = 0;
    for (;;) {
      const rows = page.all(...where.params, lastSeq, pageSize) as StoredSampleRow[];
      for (const row of rows) yield rowToSample(row);
      if (rows.length < pageSize) return;
      lastSeq = rows[rows.length - 1].seq;
    }
  }

  /**
   * Every sample grouped by policy version and the fields a per-version evaluation reads, and the
   * turn drops by the version their info recorded (src/evaluation). Grouped in SQL over the
   * covering index `samples_evaluation`, so the answer stays small and no token data is read.
   */
  tallyByVersion(): VersionTally {
    const samples = this.stmt(
      `SELECT policy_version, type, state, drop_reason, reward,
              (hint IS NOT NULL AND hint != '') AS has_hint,
              -- votes is JSON.stringify of 1 | 0 | -1 | "fail": any digit left once "fail" is gone is a vote
              replace(votes, '"fail"', '') GLOB '*[0-9]*' AS has_vote,
              count(*) AS n, min(created_at) AS first_at, max(created_at) AS last_at
         FROM samples GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7`,
    ).all() as {
      policy_version: number;
      type: SampleTallyRow['type'];
      state: SampleState;
      drop_reason: string | null;
      reward: number;
      has_hint: number;
      has_vote: number;
      n: number;
      first_at: number;
      last_at: number;
    }[];
    // Drops written before the pipeline recorded a version in their info have none (null).
    const drops = this.stmt(
      `SELECT CASE WHEN json_valid(info) AND typeof(json_extract(info, '$.policy_version')) = 'integer'
                   THEN json_extract(info, '$.policy_version') END AS policy_version,
              reason, count(*) AS n
         FROM turn_drops GROUP BY 1, 2 ORDER BY 1, 2`,
    ).all() as { policy_version: number | null; reason: string; n: number }[];
    return {
      samples: samples.map((r) => ({
        policyVersion: r.policy_version,
        type: r.type,
        state: r.state,
        dropReason: r.drop_reason,
        reward: r.reward,
        hasHint: r.has_hint === 1,
        hasVote: r.has_vote === 1,
        n: r.n,
        firstAt: r.first_at,
        lastAt: r.last_at,
      })),
      turnDrops: drops.map((r) => ({ policyVersion: r.policy_version, reason: r.reason, n: r.n })),
      evaluations: this.versionEvaluations(),
    };
  }

  /** Where a turn stands: pending, turned into sample(s), dropped, or null if the store never saw it. */
  getTurnOutcome(sessionId: string, turnId: number): TurnStatus | null {
    const staged = this.staged.get(turnKey(sessionId, turnId));
    const pending =
      staged !== undefined
        ? pendingToRow(staged)
        : (this.stmt(`SELECT * FROM pending_turns WHERE session_id = ? AND turn_id = ?`).get(sessionId, turnId) as PendingRow | undefined);
    if (pending !== undefined) return { status: 'pending', turn: rowToPending(pending) };
    const samples = this.stmt(`SELECT * FROM samples WHERE session_id = ? AND turn_id = ? ORDER BY seq`).all(
      sessionId,
      turnId,
    ) as StoredSampleRow[];
    if (samples.length > 0) return { status: 'samples', samples: samples.map(rowToSample) };
    const drop = this.stmt(`SELECT reason, info, dropped_at FROM turn_drops WHERE session_id = ? AND turn_id = ?`).get(sessionId, turnId) as
      | { reason: string; info: string | null; dropped_at: number }
      | undefined;
    if (drop !== undefined) {
      return {
        status: 'dropped',
        reason: drop.reason,
        info: drop.info === null ? null : JSON.parse(drop.info),
        droppedAt: drop.dropped_at,
      };
    }
    return null;
  }

  /** True when the store holds the turn (pending, as samples or as a drop) or forgot it; inside a write group, once it commits. */
  hasTurn(sessionId: string, turnId: number): boolean {
    return this.placeOf(sessionId, turnId) !== undefined;
  }

  /** The highest turn number the store holds or forgot for a session (0 for none): turn numbers continue after a restart. */
  lastTurnId(sessionId: string): number {
    const row = this.stmt(
      `SELECT max(n) AS n FROM (SELECT max(turn_id) AS n FROM samples WHERE session_id = @id
         UNION ALL SELECT max(turn_id) FROM turn_drops WHERE session_id = @id
         UNION ALL SELECT max(turn_id) FROM pending_turns WHERE session_id = @id)`,
    ).get({ id: sessionId }) as { n: number | null };
    const forgotten = this.stmt(`SELECT through_turn AS n FROM forgotten WHERE session_id = ?`).get(sessionId) as { n: number } | undefined;
    let n = Math.max(row.n ?? 0, forgotten?.n ?? 0);
    for (const t of this.staged.values()) if (t.sessionId === sessionId) n = Math.max(n, t.turnId);
    return n;
  }

  /**
   * The journal position before which every turn line is in this store (see sessions/replay.ts),
   * or null when none was saved (a new run, or a journal from before checkpoints).
   */
  journalCheckpoint(): { segment: number; offset: number } | null {
    const row = this.stmt(`SELECT value FROM meta WHERE key = 'journal_checkpoint'`).get() as { value: string } | undefined;
    if (row === undefined) return null;
    const v = JSON.parse(row.value) as { segment?: unknown; offset?: unknown };
    return Number.isInteger(v.segment) && Number.isInteger(v.offset) ? { segment: v.segment as number, offset: v.offset as number } : null;
  }

  /** Saves the journal checkpoint (inside an open write group: committed with it, so it never runs ahead of the turns). */
  setJournalCheckpoint(at: { segment: number; offset: number }): void {
    this.stmt(`INSERT INTO meta (key, value) VALUES ('journal_checkpoint', @value) ON CONFLICT (key) DO UPDATE SET value = @value`).run({
      value: JSON.stringify({ segment: at.segment, offset: at.offset }),
    });
  }

  /** Where the store holds a turn: as an outcome (samples or a drop), as pending, forgotten, or nowhere. */
  private placeOf(sessionId: string, turnId: number): 'outcome' | 'pending' | 'forgotten' | undefined {
    if (this.staged.has(turnKey(sessionId, turnId))) return 'pending';
    const hit = this.stmt(
      `SELECT 'forgotten' AS place FROM forgotten WHERE session_id = @sessionId AND through_turn >= @turnId
         UNION ALL SELECT 'outcome' FROM samples WHERE session_id = @sessionId AND turn_id = @turnId
         UNION ALL SELECT 'outcome' FROM turn_drops WHERE session_id = @sessionId AND turn_id = @turnId
         UNION ALL SELECT 'pending' FROM pending_turns WHERE session_id = @sessionId AND turn_id = @turnId LIMIT 1`,
    ).get({ sessionId, turnId }) as { place: 'outcome' | 'pending' | 'forgotten' } | undefined;
    return hit?.place;
  }

  // ---- forgetting ----------------------------------------------------------------------------

  /**
   * Deletes every turn of a session numbered up to `throughTurn` (pending, samples in any state,
   * drops) and records the session as forgotten, in one transaction: from then on the store refuses
   * those turns. Says which training steps had used its samples (weights cannot unlearn them).
   */
  forgetSession(sessionId: string, throughTurn: number, now = Date.now()): ForgetOutcome {
    this.commitGroup();
    return this.immediate(() => {
      const where = { id: sessionId, through: throughTurn };
      const trained = this.stmt(
        `SELECT DISTINCT trained_step AS step FROM samples
           WHERE session_id = @id AND turn_id <= @through AND state = 'trained' ORDER BY step`,
      ).all(where) as { step: number | null }[];
      const leased = (
        this.stmt(`SELECT count(*) AS n FROM samples WHERE session_id = @id AND turn_id <= @through AND state = 'leased'`).get(where) as {
          n: number;
        }
      ).n;
      const pending = this.stmt(`DELETE FROM pending_turns WHERE session_id = @id AND turn_id <= @through`).run(where).changes;
      const samples = this.stmt(`DELETE FROM samples WHERE session_id = @id AND turn_id <= @through`).run(where).changes;
      const drops = this.stmt(`DELETE FROM turn_drops WHERE session_id = @id AND turn_id <= @through`).run(where).changes;
      this.stmt(
        `INSERT INTO forgotten (session_id, through_turn, forgotten_at, done_at) VALUES (@id, @through, @now, NULL)
           ON CONFLICT (session_id) DO UPDATE SET through_turn = max(through_turn, @through), forgotten_at = @now, done_at = NULL`,
      ).run({ ...where, now });
      for (const [key, t] of this.staged) if (t.sessionId === sessionId && t.turnId <= throughTurn) this.staged.delete(key);
      return {
        pending,
        samples,
        drops,
        leased,
        trainedSteps: trained.filter((r) => r.step !== null).map((r) => r.step as number),
        trainedWithoutStep: trained.some((r) => r.step === null),
      };
    });
  }

  /** Forgotten sessions whose journal and logs are not yet scrubbed (a crash cut the forget short). */
  unfinishedForgets(): { sessionId: string; throughTurn: number }[] {
    return (
      this.stmt(`SELECT session_id, through_turn FROM forgotten WHERE done_at IS NULL ORDER BY forgotten_at`).all() as {
        session_id: string;
        through_turn: number;
      }[]
    ).map((r) => ({ sessionId: r.session_id, throughTurn: r.through_turn }));
  }

  /** Every forgotten session and the last turn number forgotten (turn numbering continues after it). */
  forgottenSessions(): Map<string, number> {
    const rows = this.stmt(`SELECT session_id, through_turn FROM forgotten`).all() as { session_id: string; through_turn: number }[];
    return new Map(rows.map((r) => [r.session_id, r.through_turn]));
  }

  /** Marks a forget as complete everywhere (journal and logs scrubbed). */
  finishForget(sessionId: string, throughTurn: number, now = Date.now()): void {
    this.stmt(`UPDATE forgotten SET done_at = ? WHERE session_id = ? AND through_turn = ?`).run(now, sessionId, throughTurn);
  }

  /**
   * Copies the write-ahead log into the database file and empties it, so deleted rows leave no old
   * page images behind. False when a reader kept it from finishing (try again later).
   */
  truncateWal(): boolean {
    this.commitGroup();
    const r = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    return r[0]?.busy === 0;
  }

  /**
   * Sessions whose newest stored turn is older than `beforeMs` (epoch ms), with their highest turn
   * number: what retention forgets. A session still active keeps all its turns.
   */
  sessionsIdleBefore(beforeMs: number): { sessionId: string; throughTurn: number }[] {
    const rows = this.stmt(
      `SELECT session_id, max(turn_id) AS through, max(at) AS last FROM (
         SELECT session_id, turn_id, created_at AS at FROM samples
         UNION ALL SELECT session_id, turn_id, dropped_at FROM turn_drops
         UNION ALL SELECT session_id, turn_id, created_at FROM pending_turns)
       GROUP BY session_id HAVING last < ? ORDER BY last`,
    ).all(beforeMs) as { session_id: string; through: number }[];
    return rows.map((r) => ({ sessionId: r.session_id, throughTurn: r.through }));
  }

  /** When the oldest turn the store keeps was stored (epoch ms), or null when it keeps none. */
  oldestTurnAt(): number | null {
    // Rows are appended in time order: the first row of each table is its oldest (no scan).
    const row = this.stmt(
      `SELECT min(at) AS at FROM (SELECT (SELECT created_at FROM samples ORDER BY seq LIMIT 1) AS at
         UNION ALL SELECT (SELECT dropped_at FROM turn_drops ORDER BY rowid LIMIT 1)
         UNION ALL SELECT (SELECT created_at FROM pending_turns ORDER BY seq LIMIT 1))`,
    ).get() as { at: number | null };
    return row.at;
  }
}

function duplicateTurn(turn: TurnRef, why: string): OpenClawError {
  return new OpenClawError('data', `turn ${turn.sessionId}:${turn.turnId} ${why}; each main turn is stored once`, {
    code: 'duplicate_turn',
  });
}
