// The next state of a turn = what the client appended after our answer: the user's reply, or the
// tool results of a tool-call turn — minus client-internal context blocks (OpenClaw ends every
// request with one and drops it from the next request).
import type { ChatMessage } from '../engines/types.ts';
import { contentText } from './canonical.ts';

/** What followed a turn: role `user` or `tool`, and the text the judge will read. */
export interface NextState {
  role: 'user' | 'tool';
  content: string;
  /** How many messages were merged into it. */
  messages: number;
}

/** Compiles the configured ignorable-message patterns once. */
export function compileIgnorePatterns(patterns: string[]): RegExp[] {
  return patterns.map((p) => new RegExp(p));
}

/** True for client-internal messages that are never a next state. */
export function isIgnorable(m: ChatMessage, patterns: RegExp[]): boolean {
  if (patterns.length === 0) return false;
  const text = contentText(m.content);
  return patterns.some((re) => re.test(text));
}

/**
 * A tool message's text as the judge reads it. A result the client marked as an error (Anthropic's
 * `tool_result.is_error`, kept on the canonical message) says so, even when its text does not.
 */
function stateText(m: ChatMessage): string {
  const text = contentText(m.content);
  return m.is_error === true && !/^\s*error\b/i.test(text) ? `Error: ${text}` : text;
}

/** Builds the next state from the messages appended after our answer; undefined if none count. */
export function nextStateFrom(appended: ChatMessage[], patterns: RegExp[]): NextState | undefined {
  const kept = appended.filter((m) => (m.role === 'user' || m.role === 'tool') && !isIgnorable(m, patterns));
  if (kept.length === 0) return undefined;
  const allTool = kept.every((m) => m.role === 'tool');
  if (kept.length === 1) return { role: allTool ? 'tool' : 'user', content: stateText(kept[0]), messages: 1 };
  const content = allTool ? kept.map((m) => stateText(m)).join('\n\n') : kept.map((m) => `[${m.role}] ${stateText(m)}`).join('\n\n');
  return { role: allTool ? 'tool' : 'user', content, messages: kept.length };
}
