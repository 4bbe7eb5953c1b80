// The scoring pipeline: finalised turns in, samples or recorded drops in the store out.
//
// What happens to a turn after its answer left, in order (the file for each step):
//  1. intake (intake.ts): the server queues the finalised turn and drains the queue between
//     requests; each drain is one group commit of the store (samples/store.ts, groupWrites);
//  2. acknowledge (`onTurnFinalized`): the turn is stored as pending — durable once the drain's
//     group commits; a turn without usable token data is dropped at once (`dropUnjudged`);
//  3. judge (`judgeTurn`, judge.ts): the mode's judges, then the teacher for an accepted hint, with
//     at most scoring.judge_concurrency turns in flight (in-flight.ts);
//  4. decide (`verdictOf`, verdict.ts): the mode's rules (methods/) with any feedback folded in;
//  5. hold or resolve (`holdOrResolve`): at-least-one may hold a turn until its session ends
//     (methods/holds.ts; `finishSessionIfDone` applies methods/session.ts); otherwise its outcome
//     is stored in one transaction, counted, shown and recorded (`storeOutcome`).
// Feedback can arrive at any step (feedback-service.ts). A held turn stays pending in the store,
// so a crash re-judges it; after a restart (`start`) the sessions of re-judged turns count as ended.
// Such a session may still go on: its new turns are held only while the store has no trainable
// turn of it (otherwise a turn after the restart would wait for a promotion that cannot happen).
//
// Shutdown: `close` waits (bounded) for the turns in flight; what is still running then stays
// pending and is re-judged at the next start — a closing judge channel never becomes 'fail' votes.
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { rolloutFacts, type Config } from '../config/index.ts';
import { OpenClawError } from '../errors/index.ts';
import { AtLeastOneHolds, atLeastOneApplies, finishSession, type MethodFlags, type Mode } from '../methods/index.ts';
import type { Judge, Teacher } from '../scoring/index.ts';
import type { PendingTurn, Sample, SampleStore, TurnOutcome } from '../samples/index.ts';
import { holdoutPoint, turnKey } from '../rl/index.ts';
import type { Turn } from '../sessions/index.ts';
import { Limiter } from '../http/index.ts';
import { DROP_REASONS, PipelineCounters } from './counters.ts';
import { promptHasSecret, toPendingTurn, tokenDataProblem, turnHasPersonalData } from './convert.ts';
import type { FeedbackRequest } from './feedback.ts';
import { FeedbackService, type FeedbackResult } from './feedback-service.ts';
import { InFlight } from './in-flight.ts';
import { IntakeQueue, type QueuedItem } from './intake.ts';
import { isLocalUrl, SessionRedactors } from '../privacy/index.ts';
import { tinkerEndpoint } from '../engines/tinker/index.ts';
import { runJudges, scoreWithTeacher, type JudgeSettings, type TeacherOutcome, type TeacherSettings } from './judge.ts';
import { JsonlAppender, forgetInPipelineRecords } from './records.ts';
import type { ScoringStage } from './stage.ts';
import type { FeedbackPolicy, JudgementViews, PromptRenderer } from './types.ts';
import { decide, judgeRecordOf, judgementOf, signalsFor, type DecideSettings, type JudgedTurn, type Verdict } from './verdict.ts';

/** What a ScoringPipeline is built from. */
export interface ScoringPipelineOptions {
  config: Config;
  store: SampleStore;
  /** The judge the config names (scoring's `createJudge`). */
  judge: Judge;
  /** Teacher for hinted scoring (OPD modes); null = none, hinted turns drop as 'teacher_unavailable'. */
  teacher?: Teacher | null;
  /** Messages → prompt ids with the policy's chat template (for the hinted teacher prompt). */
  renderPrompt?: PromptRenderer | null;
  views?: JudgementViews;
  log?: Logger;
  /** How feedback combines with the judge (default 'override'). */
  feedbackPolicy?: FeedbackPolicy;
  /** Where judge.jsonl and feedback.jsonl go (default `<output_dir>/records`). */
  recordsDir?: string;
  /** Called once by `close` (e.g. to close the judge channel and a teacher it owns). */
  onClose?: () => Promise<void>;
  /** Longest a queued turn waits for `drainIntake` before a timer drains the queue (default 20 ms). */
  intakeDelayMs?: number;
  now?: () => number;
  /** Told of every failed write to the store or judge.jsonl, with its file (the app's storage monitor: /healthz, refusing turns). */
  onStorageError?: (err: unknown, path: string) => void;
}

const TERMINAL_REASONS = new Set(['session_done', 'expired', 'evicted', 'shutdown']);

/** Judges finalised turns and turns them into samples; see the file header. */
export class ScoringPipeline implements ScoringStage {
  readonly counters = new PipelineCounters();
  readonly mode: Mode;
  readonly feedbackPolicy: FeedbackPolicy;
  private readonly store: SampleStore;
  private readonly views?: JudgementViews;
  private readonly log: Logger;
  private readonly judge: JudgeSettings;
  /** Samples whose prompt holds a secret are dropped (`secret_in_sample`): the trainer is hosted. */
  private readonly hostedTrainer: boolean;
  private readonly teacher: TeacherSettings;
  private readonly settings: DecideSettings;
  private readonly intake: IntakeQueue<QueuedItem>;
  /** Judge slots: turns in flight beyond scoring.judge_concurrency wait here. */
  private readonly judgeSlots: Limiter;
  private readonly inFlight = new InFlight();
  private readonly holds: AtLeastOneHolds<JudgedTurn>;
  private readonly feedback: FeedbackService;
  private readonly judgeRecords: JsonlAppender;
  private readonly recordsDir: string;
  /** Placeholder tables per session, when a judge or teacher is remote (privacy.mode: redact/strict). */
  private readonly redactors?: SessionRedactors;
  /** privacy.mode: strict — turns with personal data are dropped before judging. */
  private readonly strict: boolean;
  private readonly onClose?: () => Promise<void>;
  private readonly onStorageError: (err: unknown, path: string) => void;
  private readonly now: () => number;
  private readonly holdoutFraction: number;
  /** Sessions whose turns a previous process left pending, until a turn of theirs arrives after the restart. */
  private readonly resumedSessions = new Set<string>();
  private idleWaiters: Array<() => void> = [];
  private stopping = false;

  constructor(opts: ScoringPipelineOptions) {
    const c = opts.config;
    this.mode = c.mode;
    this.store = opts.store;
    this.views = opts.views;
    this.log = opts.log ?? pino({ level: 'silent' });
    this.feedbackPolicy = opts.feedbackPolicy ?? 'override';
    this.now = opts.now ?? Date.now;
    this.holdoutFraction = c.evaluation.holdout_fraction;
    this.onClose = opts.onClose;
    this.onStorageError = opts.onStorageError ?? (() => undefined);
    this.intake = new IntakeQueue(opts.intakeDelayMs ?? 20, () => this.drainIntake());
    const flags: MethodFlags = {
      atLeastOne: c.training.at_least_one,
      hintReject: c.training.hint_reject,
      forceDrop: c.training.force_drop,
      threeWayDispatch: c.training.three_way_dispatch,
      wRl: c.training.w_rl,
      wOpd: c.training.w_opd,
    };
    this.settings = { mode: c.mode, policy: this.feedbackPolicy, quorum: c.scoring.quorum, minHintChars: c.scoring.min_hint_chars, flags };
    this.holds = new AtLeastOneHolds(atLeastOneApplies(c.mode, flags));
    // A hosted trainer is sent whole prompts as token ids: one that holds a secret stays here (privacy.hosted_trainer).
    this.hostedTrainer =
      rolloutFacts(c).reach === 'tinker' &&
      c.privacy.hosted_trainer === 'drop' &&
      !isLocalUrl(tinkerEndpoint(c).baseUrl, c.privacy.local_hosts);
    // A judge or teacher elsewhere reads turns in the session's placeholders (one table per session for both).
    const remote = (url: string | undefined) => url !== undefined && !isLocalUrl(url, c.privacy.local_hosts);
    const redacting = c.privacy.mode !== 'off';
    this.strict = c.privacy.mode === 'strict';
    const redactors = redacting && (remote(c.judge.base_url) || remote(c.teacher.base_url)) ? new SessionRedactors() : undefined;
    this.judge = { mode: c.mode, judge: opts.judge, redactors: remote(c.judge.base_url) ? redactors : undefined };
    this.redactors = redactors;
    this.teacher = {
      client: opts.teacher ?? null,
      render: opts.renderPrompt ?? null,
      distillTopK: c.scoring.distill_topk,
      redactor: remote(c.teacher.base_url) && redactors !== undefined ? (id) => redactors.for(id) : undefined,
    };
    this.judgeSlots = new Limiter(c.scoring.judge_concurrency, 'scoring.judge_concurrency');
    const dir = opts.recordsDir ?? join(c.output_dir, 'records');
    this.recordsDir = dir;
    this.judgeRecords = new JsonlAppender(join(dir, 'judge.jsonl'));
    this.feedback = new FeedbackService({
      store: this.store,
      settings: this.settings,
      counters: this.counters,
      views: this.views,
      judgeRecords: this.judgeRecords,
      logPath: join(dir, 'feedback.jsonl'),
      redecideHeld: (sessionId, turnId) => this.redecideHeld(sessionId, turnId),
      now: this.now,
    });
  }

  // ---- 1. intake -----------------------------------------------------------------------------

  /** Queues `onTurnFinalized` until the next `drainIntake` (see the file header). */
  queueTurnFinalized(turn: Turn): void {
    this.intake.push(turn);
  }

  /** Queues `onSessionClosed` behind the session's queued turns. */
  queueSessionClosed(sessionId: string): void {
    this.intake.push({ closed: sessionId });
  }

  /** Runs the queued intake in order (work queued meanwhile runs too). */
  drainIntake(): void {
    const first = this.intake.take();
    if (first.length === 0) return;
    // One commit for the turns stored here and those the rules judge resolves in the microtasks after.
    this.store.groupWrites((err) => {
      this.counters.counts.store_errors++;
      this.onStorageError(err, this.store.path);
      this.log.error({ err }, 'a group of stored turns could not be committed; those turns will not be trained');
    });
    for (let items = first; items.length > 0; items = this.intake.take()) {
      for (const item of items) {
        if ('closed' in item) this.onSessionClosed(item.closed);
        else this.onTurnFinalized(item);
      }
    }
    this.wakeIfIdle();
  }

  // ---- 2. acknowledge ------------------------------------------------------------------------

  /** Acknowledges a finalised main turn (stores it as pending) and starts judging it. Never throws. */
  onTurnFinalized(turn: Turn): void {
    if (turn.turnId === undefined || turn.response === undefined || this.stopping) return;
    const problem =
      tokenDataProblem(turn) ??
      (this.hostedTrainer && promptHasSecret(turn) ? 'secret_in_sample' : null) ??
      (this.strict && turnHasPersonalData(turn) ? 'personal_in_sample' : null);
    const pending = toPendingTurn(turn, this.feedback.early(turn.sessionId, turn.turnId), this.now(), problem);
    try {
      if (!this.store.addPendingTurn(pending)) return; // its session was forgotten: not stored, not judged
    } catch (err) {
      this.counters.counts.store_errors++;
      this.onStorageError(err, this.store.path);
      this.log.error({ err, session: turn.sessionId, turn: turn.turnId }, 'could not store a finished turn; it will not be trained');
      return;
    }
    this.counters.counts.turns_acknowledged++;
    this.feedback.forget(turn.sessionId, turn.turnId);
    if (problem !== null) this.dropUnjudged(pending, problem);
    else this.startJudging(pending, false);
    // A turn that ends its session closes it here too: an evicted in-flight session gets no close event.
    if (turn.nextState === null && TERMINAL_REASONS.has(turn.noNextStateReason ?? '')) this.onSessionClosed(turn.sessionId);
  }

  /**
   * Forgets a session's turns up to `throughTurn` here (openclaw-rl forget): their feedback, their
   * placeholder table, and their lines in judge.jsonl and feedback.jsonl. The store already refuses
   * them, so a turn still queued or being judged ends without a trace. Returns the lines blanked.
   */
  forget(sessionId: string, throughTurn: number): number {
    this.feedback.forgetSession(sessionId, throughTurn);
    this.redactors?.forget(sessionId);
    return forgetInPipelineRecords(this.recordsDir, sessionId, throughTurn);
  }

  /** The session ended: once none of its turns is in flight, its held turns are resolved by the session rules. */
  onSessionClosed(sessionId: string): void {
    this.holds.close(sessionId);
    this.finishSessionIfDone(sessionId);
  }

  /** Re-judges the turns a previous process left pending; returns how many. Call once, after construction. */
  start(): number {
    const pending = this.store.pendingTurns();
    if (pending.length === 0) return 0;
    this.feedback.restore(pending);
    for (const p of pending) {
      if (!this.holds.enabled || this.holds.has(p.sessionId)) continue;
      this.holds.restore(p.sessionId, this.hasTrainable(p.sessionId));
      this.resumedSessions.add(p.sessionId);
    }
    for (const p of pending) {
      this.counters.counts.rejudged_after_restart++;
      if (p.responseIds.length === 0) this.dropUnjudged(p, (p.extra?.token_problem as string | undefined) ?? 'no_token_data');
      else this.startJudging(p, true);
    }
    for (const id of this.holds.sessionIds()) this.finishSessionIfDone(id);
    this.log.info({ turns: pending.length }, 're-judging turns left pending by the previous run');
    return pending.length;
  }

  private hasTrainable(sessionId: string): boolean {
    for (const s of this.store.iterateSamples({ sessionId })) if (s.lossMask === 1) return true;
    return false;
  }

  private trackHolds(sessionId: string): void {
    if (!this.holds.enabled || this.holds.has(sessionId)) return;
    const resumed = this.resumedSessions.delete(sessionId);
    this.holds.track(sessionId, resumed && this.hasTrainable(sessionId));
  }

  // ---- 3. judge ------------------------------------------------------------------------------

  private startJudging(p: PendingTurn, rejudged: boolean): void {
    this.trackHolds(p.sessionId);
    this.inFlight.begin(p.sessionId);
    void this.judgeSlots
      .run(() => this.judgeTurn(p, rejudged))
      .catch((err) =>
        this.log.error(
          { err, session: p.sessionId, turn: p.turnId },
          'judging a turn failed; it stays pending and is re-judged at the next start',
        ),
      )
      .finally(() => {
        this.inFlight.end(p.sessionId);
        this.finishSessionIfDone(p.sessionId);
        this.wakeIfIdle();
      });
  }

  /** Judges, has the teacher score an accepted hint, then decides. */
  private async judgeTurn(p: PendingTurn, rejudged: boolean): Promise<void> {
    if (this.stopping) return;
    const results = await runJudges(this.judge, p, this.teacher);
    this.counters.judged(results);
    const judged: JudgedTurn = {
      pending: p,
      results,
      teacher: { signal: null, status: 'not_needed', error: null },
      teacherHint: null,
      rejudged,
    };
    // Feedback may arrive while the teacher works: score again until the hint is the current one.
    for (let round = 0; round < 3; round++) {
      const { hint } = signalsFor(judged, this.feedback.of(p), this.settings);
      if (hint === judged.teacherHint || this.stopping) break;
      judged.teacher = await this.scoreTeacher(p, hint);
      judged.teacherHint = hint;
    }
    if (this.stopping) return;
    this.holdOrResolve(judged);
  }

  private async scoreTeacher(p: PendingTurn, hint: string | null): Promise<TeacherOutcome> {
    if (hint === null) return { signal: null, status: 'not_needed', error: null };
    this.counters.counts.teacher_calls++;
    // A remote judge wrote the hint in the session's placeholders: a teacher here reads the values,
    // a remote one the placeholders (scoreWithTeacher redacts the prompt and a local judge's hint).
    const restored = this.judge.redactors !== undefined && this.teacher.redactor === undefined;
    const out = await scoreWithTeacher(this.teacher, p, restored ? this.judge.redactors!.for(p.sessionId).restore(hint) : hint);
    if (out.status !== 'scored') {
      this.counters.counts.teacher_failures++;
      this.log.warn(
        { session: p.sessionId, turn: p.turnId, status: out.status, error: out.error },
        'teacher could not score a hinted turn; it is dropped',
      );
    }
    return out;
  }

  // ---- 4. decide, 5. hold or resolve ---------------------------------------------------------

  private verdictOf(t: JudgedTurn): Verdict {
    return decide(t, this.feedback.of(t.pending), this.settings, this.now());
  }

  /** Decides a judged turn; holds it for at-least-one, or stores its outcome (and any it makes final). */
  private holdOrResolve(t: JudgedTurn): void {
    const v = this.verdictOf(t);
    const { sessionId, turnId } = t.pending;
    const step = this.holds.decided(sessionId, turnId, t, v.decision);
    if (step.hold) {
      this.views?.judge(sessionId, turnId, judgementOf(v, this.mode, this.feedbackPolicy));
      return;
    }
    this.storeOutcome(t, v);
    for (const h of step.released) this.storeOutcome(h, this.verdictOf(h));
  }

  /** Once the session is closed and none of its turns in flight: its held turns, by the session rules. */
  private finishSessionIfDone(sessionId: string): void {
    const held = this.holds.finish(sessionId, this.inFlight.of(sessionId));
    if (held === null || this.stopping || held.length === 0) return;
    const verdicts = held.map((t) => this.verdictOf(t));
    const finished = finishSession(
      verdicts.map((v) => v.decision),
      { mode: this.mode, flags: this.settings.flags },
    );
    held.forEach((t, i) => this.storeOutcome(t, { ...verdicts[i], decision: finished[i] }));
  }

  /** Writes the outcome to the store (one transaction), then counts, shows and records it. */
  private storeOutcome(t: JudgedTurn, v: Verdict): void {
    if (this.stopping) return;
    const p = t.pending;
    const d = v.decision;
    const outcome: TurnOutcome =
      d.kind === 'sample'
        ? { kind: 'samples', samples: [this.withTeacherPrompt(d.sample, t)] }
        : // The version lets a per-version evaluation count the drop (turn_drops has no version column).
          {
            kind: 'dropped',
            reason: v.dropReason!,
            info: { mode: this.mode, teacher_error: t.teacher.error, policy_version: p.policyVersion },
          };
    try {
      if (!this.store.resolvePendingTurn({ sessionId: p.sessionId, turnId: p.turnId }, outcome)) return; // forgotten meanwhile
    } catch (err) {
      this.counters.counts.store_errors++;
      this.onStorageError(err, this.store.path);
      this.log.error(
        { err, session: p.sessionId, turn: p.turnId },
        'could not store the outcome of a judged turn; it stays pending and is re-judged at the next start',
      );
      return;
    }
    this.feedback.forget(p.sessionId, p.turnId);
    this.counters.resolved(v);
    this.views?.judge(p.sessionId, p.turnId, judgementOf(v, this.mode, this.feedbackPolicy));
    try {
      this.judgeRecords.append(judgeRecordOf(t, v, this.mode, this.feedbackPolicy, this.now()));
    } catch (err) {
      // The outcome is stored; only its line in judge.jsonl (a log for people) is missing.
      this.onStorageError(err, this.judgeRecords.path);
      this.log.error({ err, session: p.sessionId, turn: p.turnId }, 'could not append to judge.jsonl; the judged outcome is stored');
    }
  }

  /**
   * A distillation sample in the held-out share keeps the hinted prompt its teacher scores came
   * from: the replay evaluation scores new answers under it. Other samples do not (it would about
   * double their stored size); the trainer's reservation uses the same hash.
   */
  private withTeacherPrompt(s: Sample, t: JudgedTurn): Sample {
    const ids = t.teacher.promptIds;
    if (ids === undefined || s.teacherLogprobs === null || s.hint !== t.teacherHint) return s;
    return holdoutPoint(turnKey(s.sessionId, s.turnId)) < this.holdoutFraction ? { ...s, teacherPromptIds: ids } : s;
  }

  /** A turn that cannot be trained whatever a judge says: stored as a drop without judging. */
  private dropUnjudged(p: PendingTurn, reason: string): void {
    const t: JudgedTurn = {
      pending: p,
      results: { prm: null, hint: null },
      teacher: { signal: null, status: 'not_needed', error: null },
      teacherHint: null,
      rejudged: false,
    };
    const decision = { kind: 'drop' as const, sessionId: p.sessionId, turnId: p.turnId, reason: 'empty_response' as const, judged: false };
    this.storeOutcome(t, { decision, dropReason: reason, signals: {}, feedback: undefined, hint: null });
  }

  // ---- feedback ------------------------------------------------------------------------------

  /**
   * Applies explicit feedback to a turn (default: the session's latest); see FeedbackResult.
   * `knownTurnIds`: the session's main turns as the gateway knows them (default: from the views).
   */
  submitFeedback(req: FeedbackRequest, knownTurnIds = this.views?.turns?.(req.sessionId)?.map((t) => t.turn_id)): FeedbackResult {
    return this.feedback.submit(req, knownTurnIds);
  }

  /** A held turn is decided again with new feedback; true when that resolved it. */
  private redecideHeld(sessionId: string, turnId: number): boolean {
    const held = this.holds.heldTurn(sessionId, turnId);
    if (held === undefined) return false;
    this.holdOrResolve(held);
    return this.holds.heldTurn(sessionId, turnId) === undefined;
  }

  // ---- visibility and lifecycle --------------------------------------------------------------

  /** Numbers for /metrics (fixed key set): counts, rates, drops by reason, store and queue sizes. */
  gauges(): Record<string, number> {
    const dropped = Object.fromEntries(DROP_REASONS.map((r) => [`dropped_${r}`, this.counters.dropped[r] ?? 0]));
    let store = { samples_ready: 0, turns_pending: 0 };
    try {
      store = { samples_ready: this.store.countReady(), turns_pending: this.store.countPending() };
    } catch {
      // store closed during shutdown
    }
    return {
      ...this.counters.counts,
      ...this.counters.rates(),
      ...dropped,
      ...store,
      judging_running: this.judgeSlots.running,
      judging_queued: this.judgeSlots.waiting,
      sessions_holding: this.holds.size,
    };
  }

  /** The scoring section of /healthz: rates, counts, and the store's totals (which survive restarts). */
  health(): Record<string, unknown> {
    let store: Record<string, unknown> = {};
    try {
      store = { samples: this.store.counts(), dropped_by_reason: this.store.dropsByReason() };
    } catch {
      store = { samples: null };
    }
    return {
      thread: 'main',
      judge: this.judge.judge.provider,
      teacher: this.teacher.client === null ? 'none' : this.teacher.client.dialect,
      feedback_policy: this.feedbackPolicy,
      ...this.counters.rates(),
      counts: { ...this.counters.counts },
      dropped_since_start: { ...this.counters.dropped },
      judging: { running: this.judgeSlots.running, queued: this.judgeSlots.waiting, sessions_holding: this.holds.size },
      ...store,
    };
  }

  /** Resolves when no turn is queued or in flight. */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    return this.intake.size === 0 && this.inFlight.size === 0;
  }

  private wakeIfIdle(): void {
    if (this.isIdle()) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Waits up to `drainMs` for the turns in flight, then stops; unfinished turns stay pending for the next start. */
  async close(drainMs = 10_000): Promise<void> {
    this.drainIntake();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.whenIdle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs)))]);
    clearTimeout(timer);
    if (this.inFlight.size > 0)
      this.log.warn(
        { turns: this.inFlight.size },
        'turns still being judged at shutdown stay pending; they are re-judged at the next start',
      );
    this.stopping = true;
    await this.onClose?.();
    this.judgeRecords.close();
    this.feedback.close();
  }
}
