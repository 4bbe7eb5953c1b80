// Text helpers shared by the judge prompts and the rules judge: flatten OpenAI message content,
// cut long text in the middle, render tool calls, and drop client-internal context blocks.

import type { ChatMessage } from '../engines/types.ts';

/** Plain text of a message content: a string as is, the text parts of a list joined by newlines. */
export function contentToText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part.text === 'string') texts.push(part.text);
  }
  return texts.join('\n');
}

// OpenClaw appends such a block to every request and drops it from the next one (see
// fixtures/README.md); it carries no signal about our answer, so judges should not see it.
const INTERNAL_CONTEXT = /<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>[\s\S]*?(<<<END_OPENCLAW_INTERNAL_CONTEXT>>>|$)/g;

/** Removes client-internal context blocks (OpenClaw's `<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>`). */
export function stripInternalContext(text: string): string {
  return text.replace(INTERNAL_CONTEXT, '').trim();
}

/** Keeps the head and tail of a long text with a marker saying how much was left out. */
export function truncateMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const keep = Math.max(0, maxChars - 40);
  const head = Math.ceil(keep / 2);
  const tail = keep - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${omitted} characters omitted …]\n${tail > 0 ? text.slice(-tail) : ''}`;
}

/** Renders OpenAI tool calls as `name(arguments)` lines for a judge to read. */
export function formatToolCalls(toolCalls: Array<Record<string, unknown>>): string {
  return toolCalls
    .map((call) => {
      const fn = (call.function ?? {}) as Record<string, unknown>;
      const name = typeof fn.name === 'string' ? fn.name : 'unknown_tool';
      const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {});
      return `- ${name}(${args})`;
    })
    .join('\n');
}
