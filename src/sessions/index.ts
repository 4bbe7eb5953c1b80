// Sessions: which session each request belongs to (explicit ids or inference from the message
// history), main vs side turns, per-session turn numbers, the next state of every main turn,
// session end (done / idle / LRU), the crash-safe JSONL record file of every main turn, and the
// context-length guard. In: parsed chat requests and the policy's answers. Out: Turn objects to
// listeners and records. The rules and their limits are documented at the top of tracker.ts.
export {
  SessionTracker,
  type Turn,
  type TurnHandle,
  type TurnRequest,
  type TurnResponse,
  type TrackerCounters,
  type TrackerListeners,
  type TrackerOptions,
  type TrackerMemory,
  type SessionSource,
  type NoNextStateReason,
} from './tracker.ts';
export { prefixHashes, canonicalMessage, contentText } from './canonical.ts';
export { sessionHints, type SessionHints } from './hints.ts';
export { nextStateFrom, compileIgnorePatterns, compileStripPatterns, isIgnorable, type NextState } from './next-state.ts';
export {
  RecordWriter,
  readRecords,
  readJournal,
  lastTurnIds,
  type RecordLine,
  type RecordedTurn,
  type JournalEntry,
  type RecordWriterOptions,
} from './records.ts';
export { replayJournal, turnOfRecord, type ReplayResult, type ReplayedTurn, type ReplayStore } from './replay.ts';
export { forgetInJournal, lastJournalTurn } from './forget.ts';
export { journalSegments, positionBefore, type JournalPosition, type Segment } from './segments.ts';
export { rebuildTurn, type DeltaBase } from './delta.ts';
export {
  createContextGuard,
  contextLengthError,
  promptTokenCounter,
  type ContextGuard,
  type PromptTokenCounter,
  type PromptTokenizer,
} from './context-limit.ts';
export { sessionIdHeader, checkSessionId, MAX_SESSION_ID_PARAM } from './session-id.ts';
