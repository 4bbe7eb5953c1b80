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

/** Compiles the configured strip patterns once (every match is removed). */
export function compileStripPatterns(patterns: string[]): RegExp[] {
  return patterns.map((p) => new RegExp(p, 'g'));
}

/** True for client-internal messages that are never a next state. */
export function isIgnorable(m: ChatMessage, patterns: RegExp[]): boolean {
  if (patterns.length === 0) return false;
  const text = contentText(m.content);
  return patterns.some((re) => re.test(text));
}

/**
 * A message's text as the judge reads it: without the `strip` spans, and for a tool result the
 * client marked as an error (Anthropic's `tool_result.is_error`, kept on the canonical message)
 * saying so, even when its text does not.
 */
function stateText(m: ChatMessage, strip: RegExp[]): string {
  let text = contentText(m.content);
  for (const re of strip) text = text.replace(re, '');
  if (strip.length > 0) text = text.trim();
  return m.is_error === true && !/^\s*error\b/i.test(text) ? `Error: ${text}` : text;
}

/**
 * Builds the next state from the messages appended after our answer; undefined if none count.
 * `strip`: client-inserted spans removed from each message's text (Claude Code's
 * `<system-reminder>` blocks); a user message left empty by them does not count.
 */
export function nextStateFrom(appended: ChatMessage[], patterns: RegExp[], strip: RegExp[] = []): NextState | undefined {
  const kept: Array<{ m: ChatMessage; text: string }> = [];
  for (const m of appended) {
    if ((m.role !== 'user' && m.role !== 'tool') || isIgnorable(m, patterns)) continue;
    const text = stateText(m, strip);
    if (text !== '' || strip.length === 0 || m.role === 'tool') kept.push({ m, text });
  }
  if (kept.length === 0) return undefined;
  const allTool = kept.every((k) => k.m.role === 'tool');
  if (kept.length === 1) return { role: allTool ? 'tool' : 'user', content: kept[0].text, messages: 1 };
  const content = allTool ? kept.map((k) => k.text).join('\n\n') : kept.map((k) => `[${k.m.role}] ${k.text}`).join('\n\n');
  return { role: allTool ? 'tool' : 'user', content, messages: kept.length };
}
