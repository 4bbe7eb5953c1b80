// The two judge prompts, in our own words (docs/design.md §6): the PRM judge grades our response
// from the evidence of the next state; the hint judge extracts hindsight that would have
// improved it. Both show a short context excerpt, our response (text and tool calls) and the
// next state with its role, and ask for a final \boxed{…} the parser in parse.ts reads.

import type { ChatMessage } from '../engines/types.ts';
import { contentToText, formatToolCalls, stripInternalContext, truncateMiddle } from './text.ts';
import type { JudgedTurnInput } from './types.ts';

/** How much of the turn a judge prompt shows. */
export interface PromptLimits {
  /** Non-system messages of the prompt shown as context (newest last), default 4. */
  contextMessages?: number;
  /** Characters kept per context message, default 800. */
  contextChars?: number;
  /** Characters kept of our response and of the next state, default 6000 each. */
  mainChars?: number;
}

const PRM_SYSTEM = `You grade one step of an AI assistant's work by looking at what happened right after it.

You are shown a short excerpt of the conversation, the assistant's response at this step (its text and any tool calls), and the next state: the message that came right after the response. The next state is either the user's reply (role "user") or the output of a tool the assistant called (role "tool").

Use the next state as evidence about the response:
- Score 1 (good) when the next state shows the response worked: the task moved forward, the user thanks or approves or builds on the answer, or the tool call ran successfully and returned what was needed.
- Score -1 (bad) when the next state shows the response failed: the user asks to redo or retry it, corrects it, repeats or rephrases the same request, complains, or the tool returned an error caused by the assistant's call (wrong tool, wrong arguments, invalid command).
- Score 0 (neutral) when the next state gives no clear signal either way or the evidence is mixed.

Grade the response, not the next state. Think briefly, then finish with exactly one final score written as \\boxed{1}, \\boxed{0} or \\boxed{-1}.`;

const HINT_SYSTEM = `You look for hindsight: information in what happened after an AI assistant's response that, had the assistant known it in advance, would have let it give a better response.

You are shown a short excerpt of the conversation, the assistant's response (its text and any tool calls), and the next state: the message that came right after it, either the user's reply (role "user") or a tool's output (role "tool").

Decide whether the next state reveals such information, for example a correction, a preference or requirement the user states, a detail the assistant got wrong, or an error message that points at the fix.
- If it does, answer \\boxed{1} and write a hint of one to three sentences between [HINT_START] and [HINT_END]. The hint is an instruction to the assistant for redoing this response: concrete and actionable, saying what to do differently, not a grade and not a long quote.
- If it does not (plain thanks, an unrelated new request, a successful tool result, nothing specific), answer \\boxed{-1} and write no hint.

Think briefly, then give exactly one final decision, \\boxed{1} or \\boxed{-1}, with the hint block only for \\boxed{1}.`;

/** Chat messages asking the PRM judge for a final \boxed{1}, \boxed{0} or \boxed{-1}. */
export function buildPrmMessages(turn: JudgedTurnInput, limits: PromptLimits = {}): ChatMessage[] {
  const closing = 'Grade the assistant response. End with \\boxed{1}, \\boxed{0} or \\boxed{-1}.';
  return [
    { role: 'system', content: PRM_SYSTEM },
    { role: 'user', content: `${describeTurn(turn, limits)}\n\n${closing}` },
  ];
}

/** Chat messages asking the hint judge for \boxed{1} plus a [HINT_START]…[HINT_END] hint, or \boxed{-1}. */
export function buildHintMessages(turn: JudgedTurnInput, limits: PromptLimits = {}): ChatMessage[] {
  const closing =
    'Does the next state reveal something that would have improved the response? ' +
    'End with \\boxed{1} and a [HINT_START]…[HINT_END] hint, or with \\boxed{-1}.';
  return [
    { role: 'system', content: HINT_SYSTEM },
    { role: 'user', content: `${describeTurn(turn, limits)}\n\n${closing}` },
  ];
}

/** The context, response and next-state sections both prompts share. */
function describeTurn(turn: JudgedTurnInput, limits: PromptLimits): string {
  const mainChars = limits.mainChars ?? 6000;
  const responseText = turn.responseText.trim();
  const toolCalls = turn.responseToolCalls.length > 0 ? formatToolCalls(turn.responseToolCalls) : '';
  const response = [
    responseText !== '' ? truncateMiddle(responseText, mainChars) : '(no text)',
    toolCalls !== '' ? `Tool calls:\n${truncateMiddle(toolCalls, mainChars)}` : '',
  ]
    .filter((s) => s !== '')
    .join('\n\n');
  const next = stripInternalContext(contentToText(turn.nextState.content));
  return [
    `## Conversation so far (excerpt)\n${describeContext(turn.promptMessages, limits)}`,
    `## Assistant response\n${response}`,
    `## Next state (role: ${turn.nextState.role})\n${next !== '' ? truncateMiddle(next, mainChars) : '(empty)'}`,
  ].join('\n\n');
}

/** The last few non-system messages, each cut short; system prompts are long and say nothing about this turn. */
function describeContext(messages: ChatMessage[], limits: PromptLimits): string {
  const count = limits.contextMessages ?? 4;
  const chars = limits.contextChars ?? 800;
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') continue;
    let text = stripInternalContext(contentToText(message.content));
    if (message.tool_calls !== undefined && message.tool_calls.length > 0) {
      text = `${text}\n${formatToolCalls(message.tool_calls)}`.trim();
    }
    if (text === '') continue;
    lines.push(`[${message.role}] ${truncateMiddle(text, chars)}`);
  }
  if (count <= 0) return '(omitted)';
  const shown = lines.slice(-count);
  return shown.length > 0 ? shown.join('\n') : '(none)';
}
