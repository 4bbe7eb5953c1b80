// The scoring pipeline: finalised turns in, samples or recorded drops in the store out.
//
// Life of a turn: `onTurnFinalized` stores it as pending (the acknowledgement: once committed —
// at once, or with its drain's group commit — a crash cannot lose it), then it is judged
// asynchronously with bounded concurrency (judges of the mode, then the teacher for an accepted
// hint), decided by the mode's rules and resolved in the store in one transaction. Turns without token data are resolved at once as 'no_token_data'.
//
// At-least-one (openclaw-rl): a judged sample with loss mask 0 may still be promoted when its
// session ends, so it is HELD — it stays pending in the store (a crash re-judges it) and its
// judged form waits in memory under its session — until the session has a trainable sample
// (then it is resolved as it is) or ends (then `finishSession` picks the one to promote). The
// session's entry goes when the session is closed and its last judging finished; after a restart,
// the sessions of re-judged turns count as ended. No other mode keeps per-session state.
//
// Intake off the request path: a server queues finalised turns (`queueTurnFinalized`) and drains
// the queue when its gateway has no request in flight (`drainIntake`), so storing and judging never
// sit between a request and its answer; a timer drains it anyway after `intakeDelayMs`. Queued
// turns count as work for `whenIdle` and are drained by `close`.
//
// Shutdown: `close` waits (bounded) for judging in flight; what is still running then stays
// pending and is re-judged at the next start — a closing judge channel never becomes 'fail' votes.
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import type { Config } from '../config/index.ts';
import { OpenClawError } from '../errors/index.ts';
import type { TurnJudgement } from '../gateway/index.ts';
import { finishSession, type MethodFlags, type Mode } from '../methods/index.ts';
import type { JudgeCall } from '../scoring/index.ts';
import type { TeacherClient } from '../scoring/teacher.ts';
import type { PendingTurn, SampleStore, StoredSample, TurnOutcome } from '../samples/index.ts';
import type { Turn } from '../sessions/index.ts';
import { DROP_REASONS, PipelineCounters } from './counters.ts';
import { storedFeedback, toPendingTurn, tokenDataProblem, turnKey } from './convert.ts';
import { redecideStoredSample, usesHints, type FeedbackRequest } from './feedback.ts';
import { runJudges, scoreWithTeacher, type JudgeSettings, type TeacherOutcome, type TeacherSettings } from './judge.ts';
import { Limiter } from '../util/limiter.ts';
import { JsonlAppender, readFeedbackLog } from './records.ts';
import type { ScoringStage } from './stage.ts';
import type { Feedback, FeedbackPolicy, FeedbackUpdateRecord, PromptRenderer } from './types.ts';
import { decide, judgeRecordOf, judgementOf, signalsFor, summarize, type DecideSettings, type JudgedTurn, type Verdict } from './verdict.ts';

/** What a ScoringPipeline is built from. */
export interface ScoringPipelineOptions {
  config: Config;
  store: SampleStore;
  /** The judge model; required when judge.provider is openai_compatible, ignored for `rules`. */
  judgeCall?: JudgeCall | null;
  /** Teacher for hinted scoring (OPD modes); null = none, hinted turns drop as 'teacher_unavailable'. */
  teacher?: TeacherClient | null;
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
}

/** Where judgements go (the gateway's SessionViews, or a thread's messages to them). */
export interface JudgementViews {
  judge(sessionId: string, turnId: number, judgement: TurnJudgement): void;
  /** The session's main turns, to find the latest one and check a turn exists (for feedback). */
  turns?(sessionId: string): Array<{ turn_id: number }> | undefined;
}

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

interface SessionHold {
  /** Turns of the session still queued or being judged. */
  active: number;
  held: Map<number, JudgedTurn>;
  trainable: boolean;
  closed: boolean;
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
  private readonly teacher: TeacherSettings;
  private readonly settings: DecideSettings;
  private readonly holding: boolean;
  private readonly turns: Limiter;
  private readonly holds = new Map<string, SessionHold>();
  /** Feedback on turns not yet resolved, newest per turn (also in the durable feedback log). */
  private readonly feedback = new Map<string, Feedback>();
  private readonly judgeRecords: JsonlAppender;
  private readonly feedbackLog: JsonlAppender;
  private readonly feedbackLogPath: string;
  private readonly onClose?: () => Promise<void>;
  private readonly now: () => number;
  private active = 0;
  private readonly intake: Array<() => void> = [];
  private intakeTimer: NodeJS.Timeout | undefined;
  private readonly intakeDelayMs: number;
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
    this.onClose = opts.onClose;
    this.intakeDelayMs = opts.intakeDelayMs ?? 20;
    const flags: MethodFlags = {
      atLeastOne: c.training.at_least_one,
      hintReject: c.training.hint_reject,
      forceDrop: c.training.force_drop,
      threeWayDispatch: c.training.three_way_dispatch,
      wRl: c.training.w_rl,
      wOpd: c.training.w_opd,
    };
    this.settings = { mode: c.mode, policy: this.feedbackPolicy, quorum: c.scoring.quorum, minHintChars: c.scoring.min_hint_chars, flags };
    this.holding = c.mode === 'openclaw-rl' && flags.atLeastOne;
    let call: JudgeCall | null = null;
    if (c.judge.provider === 'openai_compatible') {
      const raw = opts.judgeCall;
      if (raw === undefined || raw === null) throw new OpenClawError('config', 'judge.provider is openai_compatible but no judge call was wired; set judge.base_url and judge.model_id, or judge.provider: rules');
      const calls = new Limiter(c.scoring.judge_concurrency, 'scoring.judge_concurrency');
      call = (messages, o) => calls.run(() => raw(messages, o));
    }
    this.judge = {
      mode: c.mode,
      call,
      m: c.scoring.majority_vote,
      quorum: c.scoring.quorum,
      temperature: c.judge.temperature,
      maxTokens: c.judge.max_tokens,
      strategy: c.scoring.hint_selection,
      minHintChars: c.scoring.min_hint_chars,
      distillTopK: c.scoring.distill_topk,
    };
    this.teacher = { client: opts.teacher ?? null, render: opts.renderPrompt ?? null, distillTopK: c.scoring.distill_topk };
    this.turns = new Limiter(c.scoring.judge_concurrency, 'scoring.judge_concurrency');
    const dir = opts.recordsDir ?? join(c.output_dir, 'records');
    this.judgeRecords = new JsonlAppender(join(dir, 'judge.jsonl'));
    this.feedbackLogPath = join(dir, 'feedback.jsonl');
    this.feedbackLog = new JsonlAppender(this.feedbackLogPath);
  }

  // ---- turns in ------------------------------------------------------------------------------

  /** Queues `onTurnFinalized` until the next `drainIntake` (see the file header). */
  queueTurnFinalized(turn: Turn): void {
    this.queueIntake(() => this.onTurnFinalized(turn));
  }

  /** Queues `onSessionClosed` behind the session's queued turns. */
  queueSessionClosed(sessionId: string): void {
    this.queueIntake(() => this.onSessionClosed(sessionId));
  }

  private queueIntake(fn: () => void): void {
    this.intake.push(fn);
    this.active++;
    this.intakeTimer ??= setTimeout(() => this.drainIntake(), this.intakeDelayMs);
  }

  /** Runs the queued intake in order (work queued meanwhile runs too). */
  drainIntake(): void {
    clearTimeout(this.intakeTimer);
    this.intakeTimer = undefined;
    if (this.intake.length === 0) return;
    // One commit for the turns stored here and those the rules judge resolves in the microtasks after.
    this.store.groupWrites((err) => {
      this.counters.counts.store_errors++;
      this.log.error({ err }, 'a group of stored turns could not be committed; those turns will not be trained');
    });
    while (this.intake.length > 0) {
      const fn = this.intake.shift()!;
      try {
        fn();
      } finally {
        this.active--;
      }
    }
    if (this.active === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Acknowledges a finalised main turn (stores it as pending) and queues its judging. Never throws. */
  onTurnFinalized(turn: Turn): void {
    if (turn.turnId === undefined || turn.response === undefined || this.stopping) return;
    const key = turnKey(turn.sessionId, turn.turnId);
    const early = this.feedback.get(key);
    const pending = toPendingTurn(turn, early, this.now());
    try {
      this.store.addPendingTurn(pending);
    } catch (err) {
      this.counters.counts.store_errors++;
      this.log.error({ err, session: turn.sessionId, turn: turn.turnId }, 'could not store a finished turn; it will not be trained');
      return;
    }
    this.counters.counts.turns_acknowledged++;
    this.feedback.delete(key); // now stored with the turn
    const problem = tokenDataProblem(turn);
    if (problem !== null) this.resolveUnjudged(pending, problem);
    else this.enqueue(pending, false);
    // A turn that ends its session closes it here too: an evicted in-flight session gets no close event.
    if (turn.nextState === null && TERMINAL_REASONS.has(turn.noNextStateReason ?? '')) this.onSessionClosed(turn.sessionId);
  }

  /** The session ended: once its judging finished, its held turns are resolved by the session rules. */
  onSessionClosed(sessionId: string): void {
    const hold = this.holds.get(sessionId);
    if (hold === undefined) return;
    hold.closed = true;
    this.maybeFinish(sessionId);
  }

  /** Re-judges the turns a previous process left pending; returns how many. Call once, after construction. */
  start(): number {
    const pending = this.store.pendingTurns();
    if (pending.length === 0) return 0;
    const logged = readFeedbackLog(this.feedbackLogPath);
    for (const p of pending) {
      const key = turnKey(p.sessionId, p.turnId);
      const fb = logged.get(key);
      if (fb !== undefined && (storedFeedback(p)?.at ?? -1) < fb.at) this.feedback.set(key, fb);
      if (this.holding && !this.holds.has(p.sessionId)) {
        // The sessions of a previous process have ended.
        this.holds.set(p.sessionId, { active: 0, held: new Map(), trainable: this.hasTrainable(p.sessionId), closed: true });
      }
    }
    for (const p of pending) {
      this.counters.counts.rejudged_after_restart++;
      if (p.responseIds.length === 0) this.resolveUnjudged(p, (p.extra?.token_problem as string | undefined) ?? 'no_token_data');
      else this.enqueue(p, true);
    }
    for (const id of [...this.holds.keys()]) this.maybeFinish(id);
    this.log.info({ turns: pending.length }, 're-judging turns left pending by the previous run');
    return pending.length;
  }

  private hasTrainable(sessionId: string): boolean {
    for (const s of this.store.iterateSamples({ sessionId })) if (s.lossMask === 1) return true;
    return false;
  }

  private enqueue(p: PendingTurn, rejudged: boolean): void {
    let hold = this.holds.get(p.sessionId);
    if (this.holding && hold === undefined) {
      hold = { active: 0, held: new Map(), trainable: false, closed: false };
      this.holds.set(p.sessionId, hold);
    }
    if (hold !== undefined) hold.active++;
    this.active++;
    void this.turns
      .run(() => this.process(p, rejudged))
      .catch((err) => this.log.error({ err, session: p.sessionId, turn: p.turnId }, 'judging a turn failed; it stays pending and is re-judged at the next start'))
      .finally(() => {
        this.active--;
        if (hold !== undefined) {
          hold.active--;
          this.maybeFinish(p.sessionId);
        }
        if (this.active === 0) for (const w of this.idleWaiters.splice(0)) w();
      });
  }

  // ---- judging and deciding ------------------------------------------------------------------

  private async process(p: PendingTurn, rejudged: boolean): Promise<void> {
    if (this.stopping) return;
    const results = await runJudges(this.judge, p, this.teacher);
    this.countJudges(results);
    const judged: JudgedTurn = { pending: p, results, teacher: { signal: null, status: 'not_needed', error: null }, teacherHint: null, rejudged };
    // Feedback may arrive while the teacher works: score again until the hint is the current one.
    for (let round = 0; round < 3; round++) {
      const { hint } = signalsFor(judged, this.feedbackOf(p), this.settings);
      if (hint === judged.teacherHint || this.stopping) break;
      judged.teacher = await this.scoreTeacher(p, hint);
      judged.teacherHint = hint;
    }
    if (this.stopping) return;
    this.settle(judged);
  }

  private async scoreTeacher(p: PendingTurn, hint: string | null): Promise<TeacherOutcome> {
    if (hint === null) return { signal: null, status: 'not_needed', error: null };
    this.counters.counts.teacher_calls++;
    const out = await scoreWithTeacher(this.teacher, p, hint);
    if (out.status !== 'scored') {
      this.counters.counts.teacher_failures++;
      this.log.warn({ session: p.sessionId, turn: p.turnId, status: out.status, error: out.error }, 'teacher could not score a hinted turn; it is dropped');
    }
    return out;
  }

  private countJudges(r: JudgedTurn['results']): void {
    const c = this.counters.counts;
    if (r.prm !== null) {
      c.prm_runs++;
      c.prm_score_sum += r.prm.score;
      this.counters.votesCast(r.prm.votes);
    }
    if (r.hint !== null) {
      c.hint_runs++;
      if (r.hint.hint !== null) c.hints_accepted++;
      this.counters.votesCast(r.hint.votes);
    }
  }

  private feedbackOf(p: PendingTurn): Feedback | undefined {
    return this.feedback.get(turnKey(p.sessionId, p.turnId)) ?? storedFeedback(p);
  }

  private verdict(t: JudgedTurn): Verdict {
    return decide(t, this.feedbackOf(t.pending), this.settings, this.now());
  }

  /** Resolves a judged turn, or holds it for at-least-one (see the file header). */
  private settle(t: JudgedTurn): void {
    const v = this.verdict(t);
    const hold = this.holds.get(t.pending.sessionId);
    const d = v.decision;
    if (hold !== undefined && !hold.trainable && d.kind === 'sample' && d.sample.lossMask === 0 && d.judged) {
      hold.held.set(t.pending.turnId, t);
      this.views?.judge(t.pending.sessionId, t.pending.turnId, judgementOf(v, this.mode, this.feedbackPolicy));
      return;
    }
    hold?.held.delete(t.pending.turnId);
    this.resolve(t, v);
    if (hold !== undefined && d.kind === 'sample' && d.sample.lossMask === 1) {
      hold.trainable = true;
      // No promotion can happen any more: the held turns are final as they are.
      for (const h of [...hold.held.values()].sort((a, b) => a.pending.turnId - b.pending.turnId)) this.resolve(h, this.verdict(h));
      hold.held.clear();
    }
  }

  private maybeFinish(sessionId: string): void {
    const hold = this.holds.get(sessionId);
    if (hold === undefined || !hold.closed || hold.active > 0) return;
    this.holds.delete(sessionId);
    if (this.stopping || hold.held.size === 0) return;
    const turns = [...hold.held.values()].sort((a, b) => a.pending.turnId - b.pending.turnId);
    const verdicts = turns.map((t) => this.verdict(t));
    const finished = finishSession(verdicts.map((v) => v.decision), { mode: this.mode, flags: this.settings.flags });
    turns.forEach((t, i) => this.resolve(t, { ...verdicts[i], decision: finished[i] }));
  }

  /** Writes the outcome to the store (one transaction), then counts, shows and records it. */
  private resolve(t: JudgedTurn, v: Verdict): void {
    if (this.stopping) return;
    const p = t.pending;
    const d = v.decision;
    const outcome: TurnOutcome =
      d.kind === 'sample'
        ? { kind: 'samples', samples: [d.sample] }
        : { kind: 'dropped', reason: v.dropReason!, info: { mode: this.mode, teacher_error: t.teacher.error } };
    try {
      this.store.resolvePendingTurn({ sessionId: p.sessionId, turnId: p.turnId }, outcome);
    } catch (err) {
      this.counters.counts.store_errors++;
      this.log.error({ err, session: p.sessionId, turn: p.turnId }, 'could not store the outcome of a judged turn; it stays pending and is re-judged at the next start');
      return;
    }
    this.feedback.delete(turnKey(p.sessionId, p.turnId));
    this.countOutcome(v);
    this.views?.judge(p.sessionId, p.turnId, judgementOf(v, this.mode, this.feedbackPolicy));
    this.judgeRecords.append(judgeRecordOf(t, v, this.mode, this.feedbackPolicy, this.now()));
  }

  /** A turn that cannot be trained whatever a judge says: recorded as a drop without judging. */
  private resolveUnjudged(p: PendingTurn, reason: string): void {
    const t: JudgedTurn = { pending: p, results: { prm: null, hint: null }, teacher: { signal: null, status: 'not_needed', error: null }, teacherHint: null, rejudged: false };
    const decision = { kind: 'drop' as const, sessionId: p.sessionId, turnId: p.turnId, reason: 'empty_response' as const, judged: false };
    this.resolve(t, { decision, dropReason: reason, signals: {}, feedback: undefined, hint: null });
  }

  private countOutcome(v: Verdict): void {
    const c = this.counters.counts;
    const d = v.decision;
    c.turns_resolved++;
    if (d.judged) c.turns_judged++;
    if (d.kind === 'drop') {
      this.counters.drop(v.dropReason!);
      return;
    }
    c.samples_stored++;
    if (d.sample.lossMask === 1) c.samples_trainable++;
    if (d.promoted) c.samples_promoted++;
  }

  // ---- feedback ------------------------------------------------------------------------------

  /**
   * Applies explicit feedback to a turn (default: the session's latest); see FeedbackResult.
   * `knownTurnIds`: the session's main turns as the gateway knows them (default: from the views).
   */
  submitFeedback(req: FeedbackRequest, knownTurnIds = this.views?.turns?.(req.sessionId)?.map((t) => t.turn_id)): FeedbackResult {
    const turnId = req.turnId ?? knownTurnIds?.at(-1);
    if (turnId === undefined) {
      throw new OpenClawError('not_found', `No session '${req.sessionId}' with a main turn is known to this server; check session_id.`, { code: 'session_not_found', param: 'session_id' });
    }
    const fb: Feedback = { score: req.score, comment: req.comment, at: this.now() };
    const base = { session_id: req.sessionId, turn_id: turnId, policy: this.feedbackPolicy, score: req.score };
    const status = this.store.getTurnOutcome(req.sessionId, turnId);
    if (status === null || status.status === 'pending') {
      if (status === null && !(knownTurnIds ?? []).includes(turnId)) {
        throw new OpenClawError('not_found', `Session '${req.sessionId}' has no main turn ${turnId}; check turn_id (omit it to rate the latest turn).`, { code: 'turn_not_found', param: 'turn_id' });
      }
      this.counters.counts.feedback_received++;
      this.logFeedback(req.sessionId, turnId, fb);
      this.feedback.set(turnKey(req.sessionId, turnId), fb);
      const applied = this.reconsiderHeld(req.sessionId, turnId);
      const hintApplied = req.comment !== null && usesHints(this.mode) && Array.from(req.comment).length > this.settings.minHintChars;
      return { ...base, status: applied ? 'applied' : 'recorded', hint_applied: hintApplied, note: null };
    }
    if (status.status === 'dropped') {
      throw conflict(`Turn ${turnId} of session '${req.sessionId}' was already judged and dropped (${status.reason}); feedback can only change turns still being judged or samples not yet taken by the trainer.`);
    }
    return this.replaceSample(req, turnId, fb, status.samples[0]);
  }

  /** A held turn is decided again with the feedback; true when that resolved it. */
  private reconsiderHeld(sessionId: string, turnId: number): boolean {
    const held = this.holds.get(sessionId)?.held.get(turnId);
    if (held === undefined) return false;
    this.settle(held);
    return !(this.holds.get(sessionId)?.held.has(turnId) ?? false);
  }

  private replaceSample(req: FeedbackRequest, turnId: number, fb: Feedback, s: StoredSample): FeedbackResult {
    if (s.state !== 'ready') {
      throw conflict(`Turn ${turnId} of session '${req.sessionId}' is already a training sample in state '${s.state}'; feedback can only change samples not yet taken by the trainer.`);
    }
    const { decision, signals, used, note } = redecideStoredSample(s, fb, this.settings);
    const ok = decision.kind === 'sample' ? this.store.replaceReadySample(decision.sample) : this.store.dropSample(s.id, decision.reason);
    if (!ok) throw conflict(`Turn ${turnId} of session '${req.sessionId}' was taken by the trainer meanwhile; feedback can no longer change it.`);
    this.counters.counts.feedback_received++;
    this.counters.counts.feedback_replaced++;
    this.logFeedback(req.sessionId, turnId, fb);
    const v: Verdict = { decision, dropReason: decision.kind === 'drop' ? decision.reason : null, signals, feedback: used, hint: s.hint };
    this.views?.judge(req.sessionId, turnId, judgementOf(v, this.mode, this.feedbackPolicy));
    const record: FeedbackUpdateRecord = { type: 'feedback_update', at: new Date(fb.at).toISOString(), session_id: req.sessionId, turn_id: turnId, feedback: { ...fb, policy: this.feedbackPolicy }, note, decision: summarize(v) };
    this.judgeRecords.append(record);
    return { session_id: req.sessionId, turn_id: turnId, status: decision.kind === 'sample' ? 'replaced' : 'dropped', policy: this.feedbackPolicy, score: req.score, hint_applied: false, note };
  }

  private logFeedback(sessionId: string, turnId: number, fb: Feedback): void {
    this.feedbackLog.append({ session_id: sessionId, turn_id: turnId, score: fb.score, comment: fb.comment, at: fb.at });
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
      judging_running: this.turns.running,
      judging_queued: this.turns.waiting,
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
      judge: this.judge.call === null ? 'rules' : 'model',
      teacher: this.teacher.client === null ? 'none' : this.teacher.client.dialect,
      feedback_policy: this.feedbackPolicy,
      ...this.counters.rates(),
      counts: { ...this.counters.counts },
      dropped_since_start: { ...this.counters.dropped },
      judging: { running: this.turns.running, queued: this.turns.waiting, sessions_holding: this.holds.size },
      ...store,
    };
  }

  /** Resolves when no turn is queued or being judged. */
  whenIdle(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Waits up to `drainMs` for judging in flight, then stops; unfinished turns stay pending for the next start. */
  async close(drainMs = 10_000): Promise<void> {
    this.drainIntake();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.whenIdle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs)))]);
    clearTimeout(timer);
    if (this.active > 0) this.log.warn({ turns: this.active }, 'turns still being judged at shutdown stay pending; they are re-judged at the next start');
    this.stopping = true;
    await this.onClose?.();
    this.judgeRecords.close();
    this.feedbackLog.close();
  }
}

function conflict(message: string): OpenClawError {
  return new OpenClawError('invalid_request', message, { status: 409, code: 'turn_already_resolved' });
}
