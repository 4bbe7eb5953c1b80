// What a remote judge reads (privacy.mode: redact or strict): the turn with secrets and personal data
// replaced by the session's placeholders — its prompt messages (text parts and tool-call
// arguments), our answer and its tool calls, and the next state. The judge's hints come back in
// placeholders; a teacher on this machine gets them with the values put back, a remote teacher
// reads the hinted prompt redacted too (judge.ts scoreWithTeacher).
import type { ChatMessage } from '../engines/types.ts';
import type { Redactor } from '../privacy/index.ts';
import type { JudgedTurnInput } from '../scoring/index.ts';

function redactCalls(calls: Array<Record<string, unknown>>, r: Redactor): Array<Record<string, unknown>> {
  return calls.map((tc) => {
    const fn = tc.function as { name?: unknown; arguments?: unknown } | undefined;
    if (fn === undefined || typeof fn.arguments !== 'string') return tc;
    return { ...tc, function: { ...fn, arguments: r.redact(fn.arguments) } };
  });
}

function redactContent(content: ChatMessage['content'], r: Redactor): ChatMessage['content'] {
  if (typeof content === 'string') return r.redact(content);
  if (!Array.isArray(content)) return content;
  return content.map((part) => (typeof part.text === 'string' ? { ...part, text: r.redact(part.text) } : part));
}

/** A chat message with every finding in its text, reasoning and tool-call arguments replaced. */
export function redactMessage(m: ChatMessage, r: Redactor): ChatMessage {
  const out: ChatMessage = { ...m, content: redactContent(m.content, r) };
  if (Array.isArray(m.tool_calls)) out.tool_calls = redactCalls(m.tool_calls, r);
  if (typeof m.reasoning_content === 'string') out.reasoning_content = r.redact(m.reasoning_content);
  return out;
}

/** The judge's input with every finding replaced, in the session's placeholders. */
export function redactJudgeInput(input: JudgedTurnInput, r: Redactor): JudgedTurnInput {
  return {
    promptMessages: input.promptMessages.map((m) => redactMessage(m, r)),
    responseText: r.redact(input.responseText),
    responseToolCalls: redactCalls(input.responseToolCalls, r),
    nextState: { ...input.nextState, content: redactContent(input.nextState.content, r) },
  };
}
