// The teacher (docs/design.md §2): log-probs of the student's unchanged response tokens after the
// (hinted) prompt. `Teacher` is what scoring uses; a `TeacherBackend` is where scores come from
// (http.ts: SGLang/vLLM dialects; engine.ts: the in-process engine; tinker.ts: the Tinker API),
// wrapped here with input checks, output verification and a concurrency bound. Anything short of
// exactly one finite log-prob per response token is an error (code 'teacher_mismatch'): the
// caller drops the turn with a counted reason, never pads with 0.0 (log-prob 0 = probability 1).
// from-config.ts picks the backend a config names.
import { OpenClawError } from '../../errors/index.ts';
import { Limiter } from '../../http/index.ts';

/** Teacher log-probs of the response tokens, one per token, with optional top-K alternatives. */
export interface TeacherScore {
  logprobs: number[];
  /** Per response position: the teacher's K most likely token ids and their log-probs, best first. */
  topK?: Array<{ ids: number[]; logprobs: number[] }>;
}

/** The error that tells the caller to drop the turn with reason 'teacher_mismatch'. */
export function teacherMismatch(dialect: string, detail: string): OpenClawError {
  return new OpenClawError('data', `teacher (${dialect}) ${detail}; the turn cannot be scored and must be dropped (never padded)`, {
    code: 'teacher_mismatch',
  });
}

/** Options of one scoring call. */
export interface ScoreOptions {
  /** Also return the teacher's top-K tokens at each response position. */
  topK?: number;
}

/** Scores response tokens under a prompt with the teacher model. */
export interface Teacher {
  readonly dialect: string;
  /**
   * Temperature the returned log-probs are computed at. 1 for sglang/vllm: they do not scale
   * prompt log-probs, and a T=1 log-prob cannot be rescaled without all logits.
   */
  readonly logprobTemperature: number;
  /** One log-prob per response token (and top-K if asked); throws OpenClawError on any doubt. */
  score(promptIds: readonly number[], responseIds: readonly number[], opts?: ScoreOptions): Promise<TeacherScore>;
  /** Requests running and waiting now. */
  stats(): { inFlight: number; waiting: number };
  /** Closes the connection pool, aborting calls still running; later calls fail. */
  close(): Promise<void>;
}

/** Where scores come from; verification and the concurrency bound are added around it. */
export interface TeacherBackend {
  readonly dialect: string;
  readonly logprobTemperature: number;
  score(promptIds: readonly number[], responseIds: readonly number[], topK: number | undefined): Promise<TeacherScore>;
  close(): Promise<void>;
}

/** Wraps any backend (HTTP or in-process) with input checks, output verification and a concurrency bound. */
export function teacherFromBackend(backend: TeacherBackend, opts: { maxConcurrency: number }): Teacher {
  const limit = new Limiter(opts.maxConcurrency, 'teacher.max_concurrency');
  let closed = false;
  return {
    dialect: backend.dialect,
    logprobTemperature: backend.logprobTemperature,
    async score(promptIds, responseIds, scoreOpts = {}) {
      if (closed) throw new OpenClawError('internal', 'teacher client is closed');
      checkIds(promptIds, responseIds, scoreOpts.topK);
      return limit.run(async () => {
        const result = await backend.score(promptIds, responseIds, scoreOpts.topK);
        verifyScore(backend.dialect, result, responseIds.length, scoreOpts.topK);
        return result;
      });
    },
    stats: () => ({ inFlight: limit.running, waiting: limit.waiting }),
    async close() {
      closed = true;
      await backend.close();
    },
  };
}

function checkIds(promptIds: readonly number[], responseIds: readonly number[], topK: number | undefined): void {
  const bad = (msg: string) => new OpenClawError('data', `teacher scoring: ${msg}`, { code: 'teacher_bad_input' });
  // At least one prompt token: the first response token is scored given the tokens before it.
  if (promptIds.length === 0) throw bad('the prompt has no tokens');
  if (responseIds.length === 0) throw bad('the response has no tokens');
  for (const id of [...promptIds, ...responseIds]) {
    if (!Number.isInteger(id) || id < 0) throw bad(`token id ${id} is not a non-negative integer`);
  }
  if (topK !== undefined && (!Number.isInteger(topK) || topK < 1)) throw bad(`topK must be a whole number ≥ 1, got ${topK}`);
}

/** Dialect-independent invariant: one finite, non-positive log-prob per response token. */
function verifyScore(dialect: string, s: TeacherScore, n: number, topK: number | undefined): void {
  if (s.logprobs.length !== n) throw teacherMismatch(dialect, `returned ${s.logprobs.length} log-probs for ${n} response tokens`);
  // log_softmax is ≤ 0; allow float rounding only.
  const at = s.logprobs.findIndex((v) => !Number.isFinite(v) || v > 1e-4);
  if (at !== -1) throw teacherMismatch(dialect, `returned log-prob ${s.logprobs[at]} at response position ${at}`);
  if (topK !== undefined && (s.topK === undefined || s.topK.length !== n)) {
    throw teacherMismatch(dialect, `returned top-K for ${s.topK?.length ?? 0} of ${n} response positions`);
  }
}
