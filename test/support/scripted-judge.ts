// A scripted judge for tests: a ScriptedUpstream whose answers are chosen per request from the
// judge prompt itself — which judge is asking (PRM or hint, told apart by the system prompt) and
// what the next state says — so concurrent votes of many turns each get their scripted answer.
import type { Behaviour, ReceivedRequest } from './scripted-upstream.ts';

/** Which judge sent a request. */
export type JudgeKind = 'prm' | 'hint';

/** What the judge prompt showed: the next state and our response. */
export interface JudgePromptView {
  kind: JudgeKind;
  nextRole: string;
  nextState: string;
  response: string;
  /** How many requests with this (kind, next state) came before this one. */
  seen: number;
}

/** An answer: the judge's text, or any scripted behaviour (status 500, slow, hang, …). */
export type JudgeAnswer = string | Behaviour;

/** Reads the judge kind, next state and response out of a judge request. */
export function viewJudgeRequest(body: Record<string, unknown>): Omit<JudgePromptView, 'seen'> {
  const messages = body.messages as Array<{ role: string; content: string }>;
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  const next = /## Next state \(role: (\w+)\)\n([\s\S]*?)\n\n(?:Grade the|Does the next state)/.exec(user);
  const response = /## Assistant response\n([\s\S]*?)\n\n## Next state/.exec(user);
  return {
    kind: /hindsight/i.test(system) ? 'hint' : 'prm',
    nextRole: next?.[1] ?? '?',
    nextState: next?.[2] ?? '',
    response: response?.[1] ?? '',
  };
}

/**
 * A ScriptedUpstream fallback that answers each judge request with `script(view)`; undefined
 * from the script means a neutral PRM answer / a rejected hint.
 */
export function judgeFallback(script: (view: JudgePromptView) => JudgeAnswer | undefined): (req: ReceivedRequest) => Behaviour {
  const seen = new Map<string, number>();
  return (req) => {
    const view = viewJudgeRequest(req.body);
    const key = `${view.kind}\u0000${view.nextState}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    const answer =
      script({ ...view, seen: n }) ?? (view.kind === 'prm' ? 'No clear signal. \\boxed{0}' : 'Nothing to learn here. \\boxed{-1}');
    return typeof answer === 'string' ? { kind: 'text', text: answer } : answer;
  };
}

/** A hint-judge answer that accepts `hint`. */
export function hintAnswer(hint: string): string {
  return `The user corrected the answer. \\boxed{1} [HINT_START]${hint}[HINT_END]`;
}
