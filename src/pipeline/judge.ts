// The judging step of one pending turn: the PRM and hint judges the mode needs (concurrently),
// then, for an accepted hint, the teacher's log-probs of the unchanged response tokens under the
// hinted prompt. Judge failures are 'fail' votes (the runners keep them); a teacher failure is a
// status the decision step turns into a drop reason, never padding.
import type { ChatMessage } from '../engines/types.ts';
import { modeSpec, type Mode, type TeacherSignal } from '../methods/index.ts';
import { injectHint, type CandidateTopK, type HintJudgeResult, type Judge, type PrmJudgeResult, type Teacher } from '../scoring/index.ts';
import type { PendingTurn } from '../samples/index.ts';
import { judgeInput, toolsOf } from './convert.ts';
import { redactJudgeInput, redactMessage } from './redact-judge.ts';
import type { Redactor, SessionRedactors } from '../privacy/index.ts';
import type { PromptRenderer } from './types.ts';

/** How the judges are run: the judges the mode needs, from the config's judge (model or rules). */
export interface JudgeSettings {
  mode: Mode;
  judge: Judge;
  /** Set when the judge is remote and privacy.mode is redact: it reads each session's turns redacted. */
  redactors?: SessionRedactors;
}

/** What the judges said about a turn; null where the mode does not run that judge or there is no next state. */
export interface JudgeResults {
  prm: PrmJudgeResult | null;
  hint: HintJudgeResult | null;
}

/** Where the teacher's scores come from; either part may be missing (no teacher configured). */
export interface TeacherSettings {
  client: Teacher | null;
  render: PromptRenderer | null;
  distillTopK: number;
  /** A remote teacher (privacy.mode redact/strict): the session's placeholder table, so it reads the prompt redacted. */
  redactor?: (sessionId: string) => Redactor;
}

/** Outcome of teacher scoring for one hint. */
export interface TeacherOutcome {
  signal: TeacherSignal | null;
  status: 'scored' | 'mismatch' | 'unavailable' | 'not_needed';
  error: string | null;
  /** The hinted prompt the teacher scored (kept with held-out samples for the replay evaluation). */
  promptIds?: number[];
}

/** Runs the judges the mode needs on a turn with a next state (both at once in openclaw-combine). */
export async function runJudges(s: JudgeSettings, pending: PendingTurn, teacher: TeacherSettings): Promise<JudgeResults> {
  const raw = judgeInput(pending);
  if (raw === null) return { prm: null, hint: null };
  const input = s.redactors ? redactJudgeInput(raw, s.redactors.for(pending.sessionId)) : raw;
  const [prm, hint] = await Promise.all([
    modeSpec(s.mode).prm ? s.judge.prm(input) : Promise.resolve(null),
    modeSpec(s.mode).hints ? s.judge.hint(input, candidateScorer(pending, teacher)) : Promise.resolve(null),
  ]);
  return { prm, hint };
}

/** Teacher top-k per hint candidate for the `overlap` selection, when there is a teacher to ask. */
function candidateScorer(pending: PendingTurn, teacher: TeacherSettings) {
  if (teacher.client === null || teacher.render === null) return undefined;
  return (hints: string[]) => candidateTopK(teacher, pending, hints);
}

/** Top-k used by the `overlap` hint selection when distill_topk does not set one. */
const OVERLAP_TOPK = 5;

/**
 * Teacher top-k under each candidate's hinted prompt, and "student" top-k under the original
 * prompt. The rollout records no top-k, so the student side is the teacher channel's model on the
 * unhinted prompt (the same base model in the reference setup).
 */
async function candidateTopK(t: TeacherSettings, p: PendingTurn, hints: string[]): Promise<Array<CandidateTopK | null>> {
  const client = t.client!;
  const topK = t.distillTopK > 0 ? t.distillTopK : OVERLAP_TOPK;
  const student = await client.score(p.promptIds, p.responseIds, { topK });
  return Promise.all(
    hints.map(async (hint) => {
      const ids = await t.render!(injectHint(p.promptMessages as ChatMessage[], hint), toolsOf(p));
      const scored = await client.score(ids, p.responseIds, { topK });
      return { teacher: scored.topK ?? [], student: student.topK ?? [] };
    }),
  );
}

/** Teacher log-probs of the unchanged response tokens after the prompt with `hint` injected. */
export async function scoreWithTeacher(t: TeacherSettings, p: PendingTurn, hint: string): Promise<TeacherOutcome> {
  if (t.client === null || t.render === null) {
    const missing =
      t.client === null ? 'no teacher is configured (teacher.provider / logprob_api)' : 'no prompt renderer (set rollout.tokenizer)';
    return { signal: null, status: 'unavailable', error: missing };
  }
  try {
    // Only the prompt is redacted: the answer's token ids are the policy's own, and an answer
    // that holds a secret never gets here (secret_in_response).
    const r = t.redactor?.(p.sessionId);
    const messages =
      r === undefined ? (p.promptMessages as ChatMessage[]) : (p.promptMessages as ChatMessage[]).map((m) => redactMessage(m, r));
    const promptIds = await t.render(injectHint(messages, r === undefined ? hint : r.redact(hint)), toolsOf(p));
    const scored = await t.client.score(promptIds, p.responseIds, t.distillTopK > 0 ? { topK: t.distillTopK } : {});
    return { signal: { logprobs: scored.logprobs, topK: scored.topK ?? null }, status: 'scored', error: null, promptIds };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const message = err instanceof Error ? err.message : String(err);
    return { signal: null, status: code === 'teacher_mismatch' ? 'mismatch' : 'unavailable', error: message };
  }
}
