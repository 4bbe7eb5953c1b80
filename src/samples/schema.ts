// The store's SQL schema and its version check. A store written by a newer openclaw-rl is refused
// rather than half-understood; an older one is migrated in place (version 1 → 2 adds trained_step,
// 2 → 3 adds teacher_prompt_ids and the version_evaluations table).
import type Database from 'better-sqlite3';
import { OpenClawError } from '../errors/index.ts';

/** Schema version this code writes and understands. */
export const SCHEMA_VERSION = 3;

const META_DDL = `
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);`;

const DDL = `
-- Turns waiting for a judge. A row leaves this table in the same transaction that records its
-- outcome (samples or a turn drop), so a turn is always in exactly one place.
CREATE TABLE IF NOT EXISTS pending_turns (
  seq              INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id       TEXT    NOT NULL,
  turn_id          INTEGER NOT NULL,
  policy_version   INTEGER NOT NULL,
  prompt_messages  TEXT    NOT NULL,           -- JSON array of chat messages
  prompt_ids       BLOB    NOT NULL,           -- Int32 LE
  response_text    TEXT    NOT NULL,
  response_ids     BLOB    NOT NULL,           -- Int32 LE
  rollout_logprobs BLOB    NOT NULL,           -- Float64 LE
  tool_calls       TEXT,                       -- JSON or NULL
  next_state       TEXT,                       -- JSON array of messages, NULL = none at session end
  extra            TEXT,                       -- JSON or NULL
  created_at       INTEGER NOT NULL,
  UNIQUE (session_id, turn_id)
);

CREATE TABLE IF NOT EXISTS samples (
  seq              INTEGER PRIMARY KEY AUTOINCREMENT,  -- insertion order = "oldest first"
  id               TEXT    NOT NULL UNIQUE,
  session_id       TEXT    NOT NULL,
  turn_id          INTEGER NOT NULL,
  policy_version   INTEGER NOT NULL,
  prompt_ids       BLOB    NOT NULL,           -- Int32 LE
  response_ids     BLOB    NOT NULL,           -- Int32 LE
  rollout_logprobs BLOB    NOT NULL,           -- Float64 LE
  loss_mask        INTEGER NOT NULL CHECK (loss_mask IN (0, 1)),
  reward           REAL    NOT NULL,
  teacher_logprobs BLOB,                       -- Float64 LE or NULL
  teacher_topk     BLOB,                       -- see codec.encodeTopK, or NULL
  type             TEXT    NOT NULL CHECK (type IN ('rl', 'opd', 'opd+rl')),
  votes            TEXT    NOT NULL,           -- JSON array of 1 | 0 | -1 | "fail"
  hint             TEXT,
  created_at       INTEGER NOT NULL,
  state            TEXT    NOT NULL DEFAULT 'ready'
                   CHECK (state IN ('ready', 'leased', 'trained', 'dropped')),
  drop_reason      TEXT,
  lease_id         TEXT,
  lease_count      INTEGER NOT NULL DEFAULT 0,
  updated_at       INTEGER NOT NULL,
  trained_step     INTEGER,                    -- training step that trained it (resume rewinds later ones)
  teacher_prompt_ids BLOB                      -- Int32 LE: the hinted prompt the teacher scored, or NULL
);
CREATE INDEX IF NOT EXISTS samples_state_seq ON samples (state, seq);
CREATE INDEX IF NOT EXISTS samples_lease ON samples (lease_id) WHERE lease_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS samples_session ON samples (session_id, turn_id);
-- Covers the per-version evaluation's grouped scan (SampleStore.tallyByVersion), so a live
-- GET /evaluation never reads the token blobs (about 20x faster on 16k-token prompts). Existing
-- stores get it at their next open (the DDL runs on every open; no version change).
CREATE INDEX IF NOT EXISTS samples_evaluation ON samples (policy_version, type, state, drop_reason, reward, hint, votes, created_at);

-- Judge-free numbers of each policy version measured on held-out turns and probes
-- (docs/evaluation.md "Replay evaluation"): one row per version and metric, the last one kept.
CREATE TABLE IF NOT EXISTS version_evaluations (
  policy_version INTEGER NOT NULL,
  metric         TEXT    NOT NULL,
  value          REAL    NOT NULL,
  samples        INTEGER NOT NULL,
  at             INTEGER NOT NULL,
  PRIMARY KEY (policy_version, metric)
);

-- Sessions forgotten (openclaw-rl forget, retention): every turn numbered up to through_turn was
-- deleted from this store in the transaction that wrote the row, and is refused if it comes back
-- (a judgement in flight, a journal replay). done_at stays NULL until the journal and the judge
-- logs are scrubbed too; the next start finishes any row left without it (app/forget.ts).
CREATE TABLE IF NOT EXISTS forgotten (
  session_id   TEXT    PRIMARY KEY,
  through_turn INTEGER NOT NULL,
  forgotten_at INTEGER NOT NULL,
  done_at      INTEGER
);

-- Turns that ended without any sample, and why (hint_reject, no_next_state, teacher_mismatch, ...).
CREATE TABLE IF NOT EXISTS turn_drops (
  session_id TEXT    NOT NULL,
  turn_id    INTEGER NOT NULL,
  reason     TEXT    NOT NULL,
  info       TEXT,                             -- JSON or NULL
  dropped_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, turn_id)
);
`;

/** Creates the tables of a new store, or checks the version of an existing one. */
export function ensureSchema(db: Database.Database, path: string): void {
  db.transaction(() => {
    // Version first: a newer schema may have changed tables this DDL would trip over.
    db.exec(META_DDL);
    const row = db.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).get() as { value: string } | undefined;
    if (row === undefined) {
      db.exec(DDL);
      db.prepare(`INSERT INTO meta (key, value) VALUES ('schema_version', ?), ('created_at', ?)`).run(
        String(SCHEMA_VERSION),
        new Date().toISOString(),
      );
      return;
    }
    const found = Number(row.value);
    if (!Number.isInteger(found) || found > SCHEMA_VERSION) {
      throw new OpenClawError(
        'data',
        `sample store ${path} has schema version ${row.value}, but this openclaw-rl understands up to ` +
          `version ${SCHEMA_VERSION}; upgrade openclaw-rl, or point it at another output folder`,
        { code: 'store_schema_too_new' },
      );
    }
    if (found < 2) {
      // v1 → v2: which step trained each sample, so a resume can return the samples of steps that
      // did not survive to ready. Rows trained before the migration keep NULL (they stay trained).
      const cols = db.prepare(`PRAGMA table_info(samples)`).all() as { name: string }[];
      if (!cols.some((c) => c.name === 'trained_step')) db.exec(`ALTER TABLE samples ADD COLUMN trained_step INTEGER`);
    }
    if (found < 3) {
      // v2 → v3: the hinted teacher prompt of each distillation sample, so a replay evaluation can
      // score new answers under it (the prompt messages are gone once a turn is judged). Rows
      // stored before keep NULL and are left out of the replay evaluation.
      const cols = db.prepare(`PRAGMA table_info(samples)`).all() as { name: string }[];
      if (!cols.some((c) => c.name === 'teacher_prompt_ids')) db.exec(`ALTER TABLE samples ADD COLUMN teacher_prompt_ids BLOB`);
    }
    if (found < SCHEMA_VERSION) db.prepare(`UPDATE meta SET value = ? WHERE key = 'schema_version'`).run(String(SCHEMA_VERSION));
    db.exec(DDL); // idempotent
  }).immediate();
}

/**
 * The version check alone, for a read-only connection: a newer schema is refused as in
 * `ensureSchema`; an older one is read as it is (nothing is migrated).
 */
export function checkSchemaReadable(db: Database.Database, path: string): void {
  const hasMeta = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).get() !== undefined;
  const row = hasMeta
    ? (db.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).get() as { value: string } | undefined)
    : undefined;
  if (row === undefined) {
    throw new OpenClawError('data', `${path} is not an openclaw-rl sample store (it has no schema version); check the path`, {
      code: 'store_not_a_store',
    });
  }
  const found = Number(row.value);
  if (!Number.isInteger(found) || found > SCHEMA_VERSION) {
    throw new OpenClawError(
      'data',
      `sample store ${path} has schema version ${row.value}, but this openclaw-rl understands up to ` +
        `version ${SCHEMA_VERSION}; upgrade openclaw-rl`,
      { code: 'store_schema_too_new' },
    );
  }
}
