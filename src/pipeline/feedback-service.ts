// Explicit feedback (POST /v1/feedback) as the pipeline applies it, by where the turn is:
//  - not yet stored or still pending: kept here (newest per turn) and in records/feedback.jsonl,
//    then used when the turn is decided; a turn held for at-least-one is decided again at once;
//  - stored as a ready sample: the sample is decided again and replaced (or dropped) in the store;
//  - dropped, or a sample the trainer has taken: 409.
// After a restart, the log gives back feedback newer than what a pending turn was stored with.
// The rules for combining feedback with the judges are the pure functions in feedback.ts.
import { OpenClawError } from '../errors/index.ts';
import type { PendingTurn, SampleStore, StoredSample } from '../samples/index.ts';
import type { PipelineCounters } from './counters.ts';
import { storedFeedback } from './convert.ts';
import { turnKey, turnOfKey } from '../rl/index.ts';
import { commentIsHint, redecideStoredSample, type FeedbackRequest } from './feedback.ts';
import { JsonlAppender, readFeedbackLog } from './records.ts';
import type { Feedback, FeedbackPolicy, FeedbackUpdateRecord, JudgementViews } from './types.ts';
import { judgementOf, summarize, type DecideSettings, type Verdict } from './verdict.ts';

/** What POST /v1/feedback answers. */
export interface FeedbackResult {
  session_id: string;
  turn_id: number;
  /** recorded: applied when the turn is judged; applied: a held turn was re-decided; replaced / dropped: a ready sample changed. */
  status: 'recorded' | 'applied' | 'replaced' | 'dropped';
  policy: FeedbackPolicy;
  score: number;
  hint_applied: boolean;
  note: string | null;
}

/** What a FeedbackService works with (shared with the pipeline that owns it). */
export interface FeedbackServiceOptions {
  store: SampleStore;
  settings: DecideSettings;
  counters: PipelineCounters;
  views?: JudgementViews;
  /** The judge record, where a changed ready sample gets a `feedback_update` line. */
  judgeRecords: JsonlAppender;
  /** The durable feedback log (records/feedback.jsonl). */
  logPath: string;
  /** Decides a held turn again with the feedback now known; true when that resolved it. */
  redecideHeld: (sessionId: string, turnId: number) => boolean;
  now: () => number;
}

/** Feedback on turns, wherever they are; see the file header. */
export class FeedbackService {
  /** Feedback on turns not yet resolved, newest per turn (also in the feedback log). */
  private readonly unresolved = new Map<string, Feedback>();
  private readonly log: JsonlAppender;

  constructor(private readonly o: FeedbackServiceOptions) {
    this.log = new JsonlAppender(o.logPath);
  }

  /** The feedback a pending turn is decided with: given since it was stored, or stored with it. */
  of(p: PendingTurn): Feedback | undefined {
    return this.unresolved.get(turnKey(p.sessionId, p.turnId)) ?? storedFeedback(p);
  }

  /** Feedback given before the turn reached the store (to be stored with it; then `forget` it). */
  early(sessionId: string, turnId: number): Feedback | undefined {
    return this.unresolved.get(turnKey(sessionId, turnId));
  }

  /** The turn's feedback is stored with it (as pending, or in its outcome). */
  forget(sessionId: string, turnId: number): void {
    this.unresolved.delete(turnKey(sessionId, turnId));
  }

  /** Drops the feedback kept for a session's turns up to `throughTurn` (openclaw-rl forget). */
  forgetSession(sessionId: string, throughTurn: number): void {
    for (const key of [...this.unresolved.keys()]) {
      const turn = turnOfKey(key, sessionId);
      if (turn !== undefined && turn <= throughTurn) this.unresolved.delete(key);
    }
  }

  /** After a restart: feedback in the log that is newer than what each pending turn was stored with. */
  restore(pending: readonly PendingTurn[]): void {
    const logged = readFeedbackLog(this.o.logPath);
    for (const p of pending) {
      const key = turnKey(p.sessionId, p.turnId);
      const fb = logged.get(key);
      if (fb !== undefined && (storedFeedback(p)?.at ?? -1) < fb.at) this.unresolved.set(key, fb);
    }
  }

  /**
   * Applies explicit feedback to a turn (default: the session's latest); see FeedbackResult.
   * `knownTurnIds`: the session's main turns as the gateway knows them.
   */
  submit(req: FeedbackRequest, knownTurnIds: number[] | undefined): FeedbackResult {
    const turnId = req.turnId ?? knownTurnIds?.at(-1);
    if (turnId === undefined) {
      throw new OpenClawError('not_found', `No session '${req.sessionId}' with a main turn is known to this server; check session_id.`, {
        code: 'session_not_found',
        param: 'session_id',
      });
    }
    const fb: Feedback = { score: req.score, comment: req.comment, at: this.o.now() };
    const status = this.o.store.getTurnOutcome(req.sessionId, turnId);
    if (status === null || status.status === 'pending') {
      if (status === null && !(knownTurnIds ?? []).includes(turnId)) {
        throw new OpenClawError(
          'not_found',
          `Session '${req.sessionId}' has no main turn ${turnId}; check turn_id (omit it to rate the latest turn).`,
          { code: 'turn_not_found', param: 'turn_id' },
        );
      }
      return this.keepForDecision(req, turnId, fb);
    }
    if (status.status === 'dropped') {
      throw conflict(
        `Turn ${turnId} of session '${req.sessionId}' was already judged and dropped (${status.reason}); ` +
          'feedback can only change turns still being judged or samples not yet taken by the trainer.',
      );
    }
    return this.replaceSample(req, turnId, fb, status.samples[0]);
  }

  close(): void {
    this.log.close();
  }

  private keepForDecision(req: FeedbackRequest, turnId: number, fb: Feedback): FeedbackResult {
    const { settings } = this.o;
    this.o.counters.counts.feedback_received++;
    this.append(req.sessionId, turnId, fb);
    this.unresolved.set(turnKey(req.sessionId, turnId), fb);
    const applied = this.o.redecideHeld(req.sessionId, turnId);
    const hintApplied = commentIsHint(req.comment, settings.mode, settings.minHintChars);
    return {
      session_id: req.sessionId,
      turn_id: turnId,
      policy: settings.policy,
      score: req.score,
      status: applied ? 'applied' : 'recorded',
      hint_applied: hintApplied,
      note: null,
    };
  }

  private replaceSample(req: FeedbackRequest, turnId: number, fb: Feedback, s: StoredSample): FeedbackResult {
    const { store, settings, counters } = this.o;
    if (s.state !== 'ready') {
      throw conflict(
        `Turn ${turnId} of session '${req.sessionId}' is already a training sample in state '${s.state}'; feedback can only change samples not yet taken by the trainer.`,
      );
    }
    const { decision, signals, used, note } = redecideStoredSample(s, fb, settings);
    const ok = decision.kind === 'sample' ? store.replaceReadySample(decision.sample) : store.dropSample(s.id, decision.reason);
    if (!ok)
      throw conflict(`Turn ${turnId} of session '${req.sessionId}' was taken by the trainer meanwhile; feedback can no longer change it.`);
    counters.counts.feedback_received++;
    counters.counts.feedback_replaced++;
    this.append(req.sessionId, turnId, fb);
    const v: Verdict = { decision, dropReason: decision.kind === 'drop' ? decision.reason : null, signals, feedback: used, hint: s.hint };
    this.o.views?.judge(req.sessionId, turnId, judgementOf(v, settings.mode, settings.policy));
    const record: FeedbackUpdateRecord = {
      type: 'feedback_update',
      at: new Date(fb.at).toISOString(),
      session_id: req.sessionId,
      turn_id: turnId,
      feedback: { ...fb, policy: settings.policy },
      note,
      decision: summarize(v),
    };
    this.o.judgeRecords.append(record);
    return {
      session_id: req.sessionId,
      turn_id: turnId,
      status: decision.kind === 'sample' ? 'replaced' : 'dropped',
      policy: settings.policy,
      score: req.score,
      hint_applied: false,
      note,
    };
  }

  private append(sessionId: string, turnId: number, fb: Feedback): void {
    this.log.append({ session_id: sessionId, turn_id: turnId, score: fb.score, comment: fb.comment, at: fb.at });
  }
}

function conflict(message: string): OpenClawError {
  return new OpenClawError('invalid_request', message, { status: 409, code: 'turn_already_resolved' });
}
